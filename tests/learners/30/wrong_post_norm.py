# normalises the stream after each residual addition (post-norm)
# varies: right_sdpa_enable_gqa.py

def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    x = rmsnorm(x + causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta), params[prefix + "norm1"], eps)
    x = rmsnorm(x + mlp(x, params, prefix), params[prefix + "norm2"], eps)
    return x
