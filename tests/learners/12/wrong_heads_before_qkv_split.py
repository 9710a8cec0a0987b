# cut c_attn's output into heads before splitting q, k, v, so each head takes interleaved columns
# varies: right_manual.py

def causal_self_attention(x, params, prefix, n_heads):
    """GPT-2's causal multi-head self-attention, with the fused QKV projection.

    x: (B, T, D), the block's normalised input. params[prefix + "attn.c_attn.weight"] has shape
    (D, 3D) and its bias (3D,): columns 0..D-1 make the queries, D..2D-1 the keys, 2D..3D-1 the
    values. Head h uses columns h*D/H .. (h+1)*D/H - 1 of each. params[prefix + "attn.c_proj.weight"]
    (D, D) and its bias (D,) project the merged heads. Returns (B, T, D).
    """
    B, T, D = x.shape
    hs = D // n_heads
    qkv = x @ params[prefix + "attn.c_attn.weight"] + params[prefix + "attn.c_attn.bias"]
    qkv = qkv.view(B, T, n_heads, 3 * hs).transpose(1, 2)
    q, k, v = qkv.split(hs, dim=-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(hs)
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    scores = scores.masked_fill(mask, float("-inf"))
    att = torch.softmax(scores, dim=-1)
    y = att @ v
    y = y.transpose(1, 2).reshape(B, T, D)
    return y @ params[prefix + "attn.c_proj.weight"] + params[prefix + "attn.c_proj.bias"]
