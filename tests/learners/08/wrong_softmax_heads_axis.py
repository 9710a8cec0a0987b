# mistake: own attention whose softmax runs over the head axis (-3) instead of the key axis
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    """Causal multi-head self-attention.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wk, Wv, Wo: (D, D) weights, used on the right (x @ W).
    n_heads: the number of heads H; it divides D, and each head works on D/H columns.
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    hd = x.shape[-1] // n_heads
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hd)
    s = np.where(causal_mask(x.shape[-2]), s, -np.inf)
    w = softmax(s, axis=-3)
    return merge_heads(w @ v) @ Wo
