# scaled by sqrt(D), the model width, instead of sqrt(D/H), the head size
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    D = x.shape[-1]
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    T = x.shape[-2]
    scores = np.where(causal_mask(T), scores, -np.inf)
    return merge_heads(softmax(scores) @ v) @ Wo
