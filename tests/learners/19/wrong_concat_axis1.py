# concatenated the cache along axis 1, which is the time axis only when there is no batch dimension
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
        k = np.concatenate([cache["k"], k], axis=1)
        v = np.concatenate([cache["v"], v], axis=1)
    t_new, t_all = q.shape[-2], k.shape[-2]
    hd = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(hd)
    scores = np.where(causal_mask(t_new, t_all), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v
    y = merge_heads(out) @ Wo
    return y, {"k": k, "v": v}
