# scaled the scores by sqrt(D) instead of sqrt(D / H)
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
    *batch, T, D = x_new.shape
    H = n_heads
    hs = D // H
    def heads(z):
        return np.moveaxis(z.reshape(*batch, T, H, hs), -2, -3)
    q, k_new, v_new = heads(x_new @ Wq), heads(x_new @ Wk), heads(x_new @ Wv)
    if cache is None:
        K, V = k_new, v_new
    else:
        K = np.concatenate((cache["k"], k_new), axis=-2)
        V = np.concatenate((cache["v"], v_new), axis=-2)
    past = K.shape[-2] - T
    s = np.einsum("...qd,...kd->...qk", q, K) / np.sqrt(D)
    allowed = np.arange(K.shape[-2])[None, :] <= np.arange(T)[:, None] + past
    s = np.where(allowed, s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    o = np.einsum("...qk,...kd->...qd", w, V)
    o = np.moveaxis(o, -3, -2).reshape(*batch, T, D)
    return o @ Wo, dict(k=K, v=V)
