# repeated along axis -2 (time) instead of the head axis -3
# varies: right_repeat.py

def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    g = n_heads // n_kv_heads
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-2)
    v = np.repeat(split_heads(x @ Wv, n_kv_heads), g, axis=-2)
    return merge_heads(causal_attention(q, k, v)) @ Wo
