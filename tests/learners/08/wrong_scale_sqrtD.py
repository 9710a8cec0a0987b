# mistake: scales scores by sqrt(D) instead of sqrt(D/H) (writes its own attention with the model width)
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    """Causal multi-head self-attention.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wk, Wv, Wo: (D, D) weights, used on the right (x @ W).
    n_heads: the number of heads H; it divides D, and each head works on D/H columns.
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    D = x.shape[-1]
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    T = x.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    scores = np.where(causal_mask(T), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v
    return merge_heads(out) @ Wo
