# kept the upper triangle (the future) instead of the lower one
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
    return np.triu(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q)

def causal_attention(q, k, v):
    return attention(q, k, v, mask=causal_mask(q.shape[-2], k.shape[-2]))
