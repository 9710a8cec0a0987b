# scaled the scores by sqrt(D) instead of the head size
# varies: right_plain.py

def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    T, D = x.shape[-2], x.shape[-1]
    pos = np.arange(T) if positions is None else positions
    q = rope(split_heads(x @ Wq, n_heads), pos, theta)
    k = rope(split_heads(x @ Wk, n_heads), pos, theta)
    v = split_heads(x @ Wv, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    s = np.where(causal_mask(T), s, -np.inf)
    return merge_heads(softmax(s) @ v) @ Wo
