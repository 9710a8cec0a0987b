# mistake: scales by sqrt(D) instead of sqrt(D/H)
# varies: right_einsum.py

def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    """Causal multi-head self-attention for the next tokens, given the keys and values of the past.

    x_new: (..., T_new, D) float64, the new tokens (any number of leading batch dimensions).
    cache: None (nothing processed yet), or a dict {"k": keys, "v": values} holding the projected,
        head-split keys and values of the T_past earlier tokens, each (..., H, T_past, D/H).
    Wq, Wk, Wv, Wo: (D, D) weights, used on the right (x @ W). n_heads: H, which divides D.
    Returns (y, new_cache): y (..., T_new, D), the rows of lesson 08's mha_forward on the whole
    sequence that belong to the new tokens; new_cache a new dict {"k", "v"} of shape
    (..., H, T_past + T_new, D/H). The input cache is left unchanged.
    """
    q = split_heads(x_new @ Wq, n_heads)
    k = split_heads(x_new @ Wk, n_heads)
    v = split_heads(x_new @ Wv, n_heads)
    if cache is not None:
        k = np.concatenate([cache["k"], k], axis=-2)
        v = np.concatenate([cache["v"], v], axis=-2)
    t_new, t_all = q.shape[-2], k.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(x_new.shape[-1])
    scores = np.where(causal_mask(t_new, t_all), scores, -np.inf)
    y = merge_heads(softmax(scores, axis=-1) @ v) @ Wo
    return y, {"k": k, "v": v}
