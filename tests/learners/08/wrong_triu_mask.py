# masked with np.triu, hiding the past and keeping the future
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    T = x.shape[-2]
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    mask = np.triu(np.ones((T, T), dtype=bool))
    return merge_heads(attention(q, k, v, mask)) @ Wo
