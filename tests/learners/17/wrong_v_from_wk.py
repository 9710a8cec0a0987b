# copy-paste slip: projected the values with Wk
# varies: right_repeat.py

def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    g = n_heads // n_kv_heads
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-3)
    v = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-3)
    return merge_heads(causal_attention(q, k, v)) @ Wo
