# mistake: forgets the 1/sqrt(d) scale
"""Lesson 02: scaled dot-product attention."""
import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis` (lesson 01): stable for huge logits and rows holding -inf."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def attention(q, k, v, mask=None):
    """Scaled dot-product attention: softmax(q k^T / sqrt(d), masked) @ v.

    q: (..., Tq, d) queries; k: (..., Tk, d) keys; v: (..., Tk, dv) values. The leading batch
       dimensions "..." are the same for all three (or broadcast against each other).
    mask: None, or a boolean array broadcastable to (..., Tq, Tk); True means "this query may
       attend to this key". Every query row has at least one True entry.
    Returns an array of shape (..., Tq, dv): each query's weighted average of the value rows.
    """
    scores = q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v
