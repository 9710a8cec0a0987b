"""Lesson 01: a numerically stable softmax."""
import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis`: non-negative values that sum to 1 along that axis.

    x: a float64 array of any shape. Entries may be huge (1e3 or more) or -inf,
       as long as each slice along `axis` has at least one finite entry.
    Returns an array of the same shape as `x`. `x` itself is left unchanged.
    """
    ### BEGIN SOLUTION
    # 1. Shift each slice so its largest entry is 0: exp can then never overflow
    shifted = x - np.max(x, axis=axis, keepdims=True)
    # 2. Exponentiate: every value now lies in [0, 1], and the largest is exactly 1
    e = np.exp(shifted)
    # 3. Divide by each slice's sum, keeping the axis so the division broadcasts
    return e / np.sum(e, axis=axis, keepdims=True)
    ### END SOLUTION
