# mistake: applies RoPE to the full-width projections before splitting into heads
"""Lesson 16: causal multi-head attention with rotary position embeddings on queries and keys."""
import numpy as np


# ---------------------------------------------------------------------------------------------
# Given: your work from earlier lessons (01 softmax, 02 attention, 03 causal mask, 07 heads,
# 15 RoPE). Call these; your code goes further down.
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


def rope(x, positions, theta=10000.0):
    """Rotary position embedding of `x`, rotate-half (half-split) convention (lesson 15).

    x: a float64 array of shape (..., T, d), d even: one d-vector per position (any leading axes).
    positions: an int array of shape (T,): the position of each of the T rows (it need not start
        at 0, nor be consecutive).
    theta: the base of the frequencies.
    Column i is paired with column i + d/2 (i = 0 .. d/2 - 1), and the pair is rotated by the angle
    positions[t] * theta ** (-2 i / d), in radians:
        out[..., t, i]       = x[..., t, i] * cos - x[..., t, i + d/2] * sin
        out[..., t, i + d/2] = x[..., t, i + d/2] * cos + x[..., t, i] * sin
    Returns an array of the same shape as x; x itself is left unchanged.
    """
    d = x.shape[-1]
    half = d // 2
    inv_freq = theta ** (-2.0 * np.arange(half) / d)
    angles = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    """Causal multi-head self-attention with RoPE on every head's queries and keys.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wk, Wv, Wo: (D, D) weights, used on the right (x @ W).
    n_heads: the number of heads H; it divides D, and the head size D/H is even.
    positions: an int array of shape (T,), the position of each token; None means 0 .. T-1.
    theta: the RoPE frequency base.
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    T = x.shape[-2]
    if positions is None:
        positions = np.arange(T)
    q = split_heads(rope(x @ Wq, positions, theta), n_heads)
    k = split_heads(rope(x @ Wk, positions, theta), n_heads)
    v = split_heads(x @ Wv, n_heads)
    out = causal_attention(q, k, v)
    return merge_heads(out) @ Wo
