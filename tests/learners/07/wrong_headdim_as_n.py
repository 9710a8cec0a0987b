# mistake: treats n_heads as the head size (reshape to D/n_heads heads of size n_heads)
"""Lesson 07: splitting feature vectors into attention heads, and merging them back, in numpy."""
import numpy as np


def split_heads(x, n_heads):
    """Split the last axis of `x` into `n_heads` heads and move the head axis before time.

    x: a float64 array of shape (..., T, D), with D divisible by n_heads.
    Returns an array of shape (..., H, T, D/H) with H = n_heads, where head h holds the columns
    h*D/H to (h+1)*D/H of every row: out[..., h, t, :] == x[..., t, h*D/H:(h+1)*D/H].
    """
    *lead, t, d = x.shape
    y = x.reshape(*lead, t, -1, n_heads)
    return np.swapaxes(y, -3, -2)


def merge_heads(x):
    """The inverse of split_heads: put the heads side by side again.

    x: a float64 array of shape (..., H, T, Dh).
    Returns an array of shape (..., T, H*Dh), where columns h*Dh to (h+1)*Dh of every row come
    from head h: out[..., t, h*Dh:(h+1)*Dh] == x[..., h, t, :].
    """
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -3, -2).reshape(*lead, t, h * dh)
