# mistake: uses causal_mask(t_new) (square over the new tokens only), which cannot cover the cached keys
"""Lesson 19: causal multi-head attention one chunk at a time, with a cache of keys and values."""
import numpy as np


# ---------------------------------------------------------------------------------------------
# Given: your work from earlier lessons (01 softmax, 03 causal mask, 07 heads). Call these; your
# code goes further down.
# ---------------------------------------------------------------------------------------------

def softmax(x, axis=-1):
    """Softmax of `x` along `axis` (lesson 01): stable, every slice sums to 1, exact for -inf."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def causal_mask(t_q, t_k=None):
    """Boolean (t_q, t_k) mask (lesson 03): True where a query may attend to a key.

    Query i sits at absolute position t_k - t_q + i and may see key j iff j <= t_k - t_q + i.
    With t_k omitted, t_k = t_q and the mask is the lower triangle, diagonal included.
    """
    t_k = t_q if t_k is None else t_k
    query_pos = np.arange(t_q)[:, None] + (t_k - t_q)
    key_pos = np.arange(t_k)[None, :]
    return key_pos <= query_pos


def split_heads(x, n_heads):
    """(..., T, D) -> (..., H, T, D/H) (lesson 07): head h holds columns h*D/H to (h+1)*D/H."""
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    """(..., H, T, D/H) -> (..., T, D) (lesson 07): the inverse of split_heads."""
    *batch, h, t, hd = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, t, h * hd)


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

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
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(causal_mask(t_new), scores, -np.inf)
    y = merge_heads(softmax(scores, axis=-1) @ v) @ Wo
    return y, {"k": k, "v": v}
