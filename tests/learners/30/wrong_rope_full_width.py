# applies RoPE to the full-width projections before splitting into heads
# varies: right_head_loop.py

def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    B, T, D = x.shape
    hd = D // n_heads
    pos = torch.arange(T)
    q = rope(x @ params[prefix + "Wq"], pos, theta).view(B, T, n_heads, hd).transpose(1, 2)
    k = rope(x @ params[prefix + "Wk"], pos, theta).view(B, T, n_kv_heads, hd).transpose(1, 2)
    v = (x @ params[prefix + "Wv"]).view(B, T, n_kv_heads, hd).transpose(1, 2)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    return y.transpose(1, 2).reshape(B, T, D) @ params[prefix + "Wo"]
