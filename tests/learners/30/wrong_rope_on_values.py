# rotates the values with RoPE too
# varies: right_head_loop.py

def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    B, T, D = x.shape
    hd = D // n_heads
    q = (x @ params[prefix + "Wq"]).view(B, T, n_heads, hd).transpose(1, 2)
    k = (x @ params[prefix + "Wk"]).view(B, T, n_kv_heads, hd).transpose(1, 2)
    v = (x @ params[prefix + "Wv"]).view(B, T, n_kv_heads, hd).transpose(1, 2)
    pos = torch.arange(T)
    q = rope(q, pos, theta)
    k = rope(k, pos, theta)
    v = rope(v, pos, theta)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    return y.transpose(1, 2).reshape(B, T, D) @ params[prefix + "Wo"]
