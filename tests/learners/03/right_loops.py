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
    m = np.zeros((t_q, t_k), dtype=bool)
    offset = t_k - t_q
    for i in range(t_q):
        for j in range(t_k):
            if j <= offset + i:
                m[i, j] = True
    return m


def causal_attention(q, k, v):
    tq, tk = q.shape[-2], k.shape[-2]
    mask = causal_mask(tq, tk)
    return attention(q, k, v, mask)
