import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis` (lesson 01): stable for huge logits and rows holding -inf."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def attention(q, k, v, mask=None):
    """Scaled dot-product attention (lesson 02): softmax(q k^T / sqrt(d), masked) @ v."""
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ v


def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    i = np.arange(t_q)[:, None] + (t_k - t_q)
    j = np.arange(t_k)[None, :]
    return j < i


def causal_attention(q, k, v):
    return attention(q, k, v, causal_mask(q.shape[-2], k.shape[-2]))
