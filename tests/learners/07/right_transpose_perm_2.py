# right: explicit axis permutation tuples with ndarray.transpose
"""Lesson 07: splitting feature vectors into attention heads, and merging them back, in numpy."""
import numpy as np


def split_heads(x, n_heads):
    """Split the last axis of `x` into `n_heads` heads and move the head axis before time.

    x: a float64 array of shape (..., T, D), with D divisible by n_heads.
    Returns an array of shape (..., H, T, D/H) with H = n_heads, where head h holds the columns
    h*D/H to (h+1)*D/H of every row: out[..., h, t, :] == x[..., t, h*D/H:(h+1)*D/H].
    """
    n = x.ndim
    shape = x.shape[:-1] + (n_heads, x.shape[-1] // n_heads)
    perm = tuple(range(n - 2)) + (n - 1, n - 2, n)
    return np.ascontiguousarray(x.reshape(shape).transpose(perm))


def merge_heads(x):
    """The inverse of split_heads: put the heads side by side again.

    x: a float64 array of shape (..., H, T, Dh).
    Returns an array of shape (..., T, H*Dh), where columns h*Dh to (h+1)*Dh of every row come
    from head h: out[..., t, h*Dh:(h+1)*Dh] == x[..., h, t, :].
    """
    n = x.ndim
    perm = tuple(range(n - 3)) + (n - 2, n - 3, n - 1)
    y = x.transpose(perm)
    return y.reshape(x.shape[:-3] + (x.shape[-2], x.shape[-3] * x.shape[-1]))
