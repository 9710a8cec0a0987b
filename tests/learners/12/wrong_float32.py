# converted the parameters to float32 to make it faster
# varies: right_manual.py

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
    params = {k: v.float() for k, v in params.items()}
    wte = params["transformer.wte.weight"]
    wpe = params["transformer.wpe.weight"]
    B, T = ids.shape
    x = wte[ids] + wpe[:T]
    n_layers = 0
    while f"transformer.h.{n_layers}.ln_1.weight" in params:
        n_layers += 1
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T
