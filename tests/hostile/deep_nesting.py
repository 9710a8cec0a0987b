"""Hostile: returns the right answer wrapped in a list nested 100,000 levels deep."""
import numpy as np


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    value = (e / np.sum(e, axis=axis, keepdims=True)).tolist()
    for _ in range(100_000):
        value = [value]
    return value
