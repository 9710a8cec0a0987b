# reshaped the queries to (g, n_kv) groups instead of (n_kv, g) when broadcasting
# varies: right_repeat.py

def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    *batch, T, D = x.shape
    hd = D // n_heads
    g = n_heads // n_kv_heads
    q = split_heads(x @ Wq, n_heads).reshape(*batch, g, n_kv_heads, T, hd)
    k = split_heads(x @ Wk, n_kv_heads)[..., None, :, :, :]
    v = split_heads(x @ Wv, n_kv_heads)[..., None, :, :, :]
    out = causal_attention(q, k, v).reshape(*batch, n_heads, T, hd)
    return merge_heads(out) @ Wo
