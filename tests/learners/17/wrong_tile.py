# used np.tile, which cycles the key/value heads (h % n_kv) instead of grouping them
# varies: right_repeat.py

def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    g = n_heads // n_kv_heads
    reps = (1,) * (x.ndim - 2) + (g, 1, 1)
    q = split_heads(x @ Wq, n_heads)
    k = np.tile(split_heads(x @ Wk, n_kv_heads), reps)
    v = np.tile(split_heads(x @ Wv, n_kv_heads), reps)
    return merge_heads(causal_attention(q, k, v)) @ Wo
