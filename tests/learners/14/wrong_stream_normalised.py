# mistake: overwrites the stream with its normalised copy, so the residual adds to rmsnorm(x)
"""Lesson 14: a LLaMA-style transformer block (RMSNorm, causal multi-head attention, SwiGLU MLP)."""
import numpy as np


# ---------------------------------------------------------------------------------------------
# Given: your work from earlier lessons (01 softmax, 02 attention, 03 causal mask, 06 RMSNorm,
# 07 heads, 08 MHA). Call these; your code goes further down.
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


def rmsnorm(x, gamma, eps=1e-5):
    """RMSNorm over the last axis (lesson 06): x / sqrt(mean(x**2) + eps) * gamma.

    x: (..., D); gamma: (D,), the learned gain. Returns (..., D).
    """
    mean_square = np.mean(x ** 2, axis=-1, keepdims=True)
    x_hat = x / np.sqrt(mean_square + eps)
    return x_hat * gamma


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

def silu(z):
    """SiLU, elementwise: z * sigmoid(z), with a sigmoid that never overflows.

    z: a float64 array of any shape (entries may be as large as +-1000 or more).
    Returns an array of the same shape.
    """
    return z * 0.5 * (1.0 + np.tanh(z / 2.0))


def swiglu_mlp(u, W1, W3, W2):
    """The SwiGLU MLP: (silu(u @ W1) * (u @ W3)) @ W2.

    u: (..., D); W1, W3: (D, F); W2: (F, D). Returns (..., D).
    """
    return (silu(u @ W1) * (u @ W3)) @ W2


def transformer_block(x, p, n_heads):
    """One pre-norm LLaMA-style block (no RoPE).

    x: (B, T, D). p: a dict with "norm1", "norm2" (D,), "Wq", "Wk", "Wv", "Wo" (D, D),
    "W1", "W3" (D, F) and "W2" (F, D). n_heads divides D.
    Returns y of shape (B, T, D), where
        h = x + mha_forward(rmsnorm(x, norm1), Wq, Wk, Wv, Wo, n_heads)
        y = h + swiglu_mlp(rmsnorm(h, norm2), W1, W3, W2).
    """
    x = rmsnorm(x, p["norm1"])
    h = x + mha_forward(x, p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    h = rmsnorm(h, p["norm2"])
    y = h + swiglu_mlp(h, p["W1"], p["W3"], p["W2"])
    return y
