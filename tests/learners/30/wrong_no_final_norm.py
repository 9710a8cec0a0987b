# forgets the final RMSNorm before the head
# varies: right_sdpa_enable_gqa.py

def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    x = params["embed"][ids]
    i = 0
    while f"layers.{i}.norm1" in params:
        x = block(x, params, f"layers.{i}.", n_heads, n_kv_heads, theta, eps)
        i += 1
    return x @ params["head"]
