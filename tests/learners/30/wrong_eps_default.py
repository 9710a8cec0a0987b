# calls the given rmsnorm without the model's eps, so every norm uses 1e-5
# varies: right_sdpa_enable_gqa.py

def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    h = x + causal_self_attention(rmsnorm(x, params[prefix + "norm1"]), params, prefix, n_heads, n_kv_heads, theta)
    return h + mlp(rmsnorm(h, params[prefix + "norm2"]), params, prefix)


def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    x = params["embed"][ids]
    i = 0
    while f"layers.{i}.norm1" in params:
        x = block(x, params, f"layers.{i}.", n_heads, n_kv_heads, theta, eps)
        i += 1
    return rmsnorm(x, params["norm"]) @ params["head"]
