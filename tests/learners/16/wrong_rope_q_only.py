# rotated only the queries, forgetting the keys
# varies: right_plain.py

def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    if positions is None:
        positions = np.arange(x.shape[-2])
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo
