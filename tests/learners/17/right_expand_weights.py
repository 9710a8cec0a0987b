# right: repeats the kv weight columns head by head (block-wise) and reuses mha_forward
"""Lesson 17: grouped-query attention (GQA): fewer key/value heads than query heads."""
import numpy as np


# ---------------------------------------------------------------------------------------------
# Given: your work from earlier lessons (01 softmax, 02 attention, 03 causal mask, 07 heads,
# 08 multi-head attention). Call these; your code goes further down.
# ---------------------------------------------------------------------------------------------

def softmax(x, axis=-1):
    """Softmax of `x` along `axis` (lesson 01): stable, every slice sums to 1."""
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


def attention(q, k, v, mask=None):
    """Scaled dot-product attention (lesson 02).

    q: (..., Tq, d), k: (..., Tk, d), v: (..., Tk, dv); mask: booleans broadcastable to
    (..., Tq, Tk), True where a query may attend to a key. Returns (..., Tq, dv).
    """
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


def causal_attention(q, k, v):
    """Attention in which every query sees only its own and earlier key positions (lesson 03)."""
    return attention(q, k, v, mask=causal_mask(q.shape[-2], k.shape[-2]))


def split_heads(x, n_heads):
    """(..., T, D) -> (..., H, T, D/H) (lesson 07): head h holds columns h*D/H to (h+1)*D/H."""
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    """(..., H, T, D/H) -> (..., T, D) (lesson 07): the inverse of split_heads."""
    *batch, h, t, hd = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, t, h * hd)


def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    """Causal multi-head self-attention (lesson 08).

    x: (..., T, D); Wq, Wk, Wv, Wo: (D, D), used on the right (x @ W); n_heads divides D.
    Returns (..., T, D).
    """
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ Wo


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    """Causal grouped-query self-attention.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wo: (D, D) weights; Wk, Wv: (D, n_kv_heads * D / n_heads) weights; all used on the
        right (x @ W).
    n_heads: the number of query heads H; it divides D, and every head has size hd = D / H.
    n_kv_heads: the number of key/value heads; it divides H. Query heads come in n_kv_heads
        consecutive groups of H / n_kv_heads, and group g shares key/value head g: query head h
        uses key/value head h // (H / n_kv_heads).
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    D = x.shape[-1]
    hd = D // n_heads
    g = n_heads // n_kv_heads
    Wk_full = np.repeat(Wk.reshape(D, n_kv_heads, 1, hd), g, axis=2).reshape(D, D)
    Wv_full = np.repeat(Wv.reshape(D, n_kv_heads, 1, hd), g, axis=2).reshape(D, D)
    return mha_forward(x, Wq, Wk_full, Wv_full, Wo, n_heads)
