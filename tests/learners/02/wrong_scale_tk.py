# scaled by sqrt of the number of keys instead of the vector size
"""Lesson 02: scaled dot-product attention."""
import numpy as np


def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)



def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-2])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ v
