# subtracted the offset instead of adding it (t_q - t_k instead of t_k - t_q)
"""Lesson 03: the causal mask, and causal attention."""
import numpy as np


def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def attention(q, k, v, mask=None):
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ v



def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    query_pos = np.arange(t_q)[:, None] + (t_q - t_k)
    key_pos = np.arange(t_k)[None, :]
    return key_pos <= query_pos

def causal_attention(q, k, v):
    return attention(q, k, v, mask=causal_mask(q.shape[-2], k.shape[-2]))
