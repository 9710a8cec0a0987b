# mistake: divides by the sum over the whole array, not along the axis
"""Lesson 01: a numerically stable softmax."""
import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis`: non-negative values that sum to 1 along that axis.

    x: a float64 array of any shape. Entries may be huge (1e3 or more) or -inf,
       as long as each slice along `axis` has at least one finite entry.
    Returns an array of the same shape as `x`. `x` itself is left unchanged.
    """
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e)
