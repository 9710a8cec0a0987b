# right: moves the axis to the end, works on the last axis, and moves it back
"""Lesson 01: a numerically stable softmax."""
import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis`: non-negative values that sum to 1 along that axis.

    x: a float64 array of any shape. Entries may be huge (1e3 or more) or -inf,
       as long as each slice along `axis` has at least one finite entry.
    Returns an array of the same shape as `x`. `x` itself is left unchanged.
    """
    y = np.moveaxis(np.array(x, dtype=np.float64, copy=True), axis, -1)
    y = y - y.max(axis=-1)[..., None]
    np.exp(y, out=y)
    y /= y.sum(axis=-1)[..., None]
    return np.moveaxis(y, -1, axis)
