# mistake: uses the exact erf GELU (F.gelu default) instead of GPT-2's tanh form
# varies: right_manual.py

def causal_self_attention(x, params, prefix, n_heads):
    """GPT-2's causal multi-head self-attention, with the fused QKV projection.

    x: (B, T, D), the block's normalised input. params[prefix + "attn.c_attn.weight"] has shape
    (D, 3D) and its bias (3D,): columns 0..D-1 make the queries, D..2D-1 the keys, 2D..3D-1 the
    values. Head h uses columns h*D/H .. (h+1)*D/H - 1 of each. params[prefix + "attn.c_proj.weight"]
    (D, D) and its bias (D,) project the merged heads. Returns (B, T, D).
    """
    B, T, D = x.shape
    H = n_heads
    hs = D // H
    qkv = x @ params[prefix + "attn.c_attn.weight"] + params[prefix + "attn.c_attn.bias"]
    q, k, v = qkv.split(D, dim=-1)
    q = q.view(B, T, H, hs).transpose(1, 2)
    k = k.view(B, T, H, hs).transpose(1, 2)
    v = v.view(B, T, H, hs).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) / math.sqrt(hs)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    att = att.masked_fill(~causal, float("-inf"))
    att = torch.softmax(att, dim=-1)
    y = att @ v
    y = y.transpose(1, 2).reshape(B, T, D)
    return y @ params[prefix + "attn.c_proj.weight"] + params[prefix + "attn.c_proj.bias"]


def mlp(x, params, prefix):
    """GPT-2's MLP: widen to 4D with c_fc, tanh GELU, narrow back to D with c_proj.

    x: (B, T, D), the block's normalised input. params[prefix + "mlp.c_fc.weight"] has shape
    (D, 4D) and params[prefix + "mlp.c_proj.weight"] (4D, D), each with its bias. Returns (B, T, D).
    """
    h = F.gelu(x @ params[prefix + "mlp.c_fc.weight"] + params[prefix + "mlp.c_fc.bias"])
    return h @ params[prefix + "mlp.c_proj.weight"] + params[prefix + "mlp.c_proj.bias"]


def gpt_forward(ids, params, n_heads):
    """The logits of a GPT-2 model for a batch of token ids.

    ids: an int64 tensor of shape (B, T), with T at most P, the number of positions.
    params: a dict of float64 tensors named as in GPT-2's state dict: "transformer.wte.weight"
        (V, D), "transformer.wpe.weight" (P, D), per block "transformer.h.{i}." followed by
        "ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias", "attn.c_proj.weight",
        "attn.c_proj.bias", "ln_2.weight", "ln_2.bias", "mlp.c_fc.weight", "mlp.c_fc.bias",
        "mlp.c_proj.weight", "mlp.c_proj.bias", and "transformer.ln_f.weight", "transformer.ln_f.bias".
        Every weight multiplies on the right (x @ W, W of shape (in, out)). The number of blocks is
        however many "transformer.h.{i}." groups the dict holds, possibly none.
    n_heads: the number of attention heads; it divides D.
    Returns the logits, a float64 tensor of shape (B, T, V). The LM head is tied to the token
    embedding: logits = ln_f(x) @ wte.T.
    """
    wte = params["transformer.wte.weight"]
    wpe = params["transformer.wpe.weight"]
    B, T = ids.shape
    x = wte[ids] + wpe[:T]
    n_layers = len({name.split(".")[2] for name in params if name.startswith("transformer.h.")})
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T
