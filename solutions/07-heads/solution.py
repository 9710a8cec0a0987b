"""Lesson 07: splitting feature vectors into attention heads, and merging them back, in numpy."""
import numpy as np


def split_heads(x, n_heads):
    """Split the last axis of `x` into `n_heads` heads and move the head axis before time.

    x: a float64 array of shape (..., T, D), with D divisible by n_heads.
    Returns an array of shape (..., H, T, D/H) with H = n_heads, where head h holds the columns
    h*D/H to (h+1)*D/H of every row: out[..., h, t, :] == x[..., t, h*D/H:(h+1)*D/H].
    """
    ### BEGIN SOLUTION
    # 1. Read the sizes; any number of leading (batch) axes is allowed
    *lead, t, d = x.shape
    # 2. Cut each row into n_heads consecutive chunks: (..., T, H, D/H)
    chunks = x.reshape(*lead, t, n_heads, d // n_heads)
    # 3. Swap the time and head axes: (..., H, T, D/H)
    return np.swapaxes(chunks, -2, -3)
    ### END SOLUTION


def merge_heads(x):
    """The inverse of split_heads: put the heads side by side again.

    x: a float64 array of shape (..., H, T, Dh).
    Returns an array of shape (..., T, H*Dh), where columns h*Dh to (h+1)*Dh of every row come
    from head h: out[..., t, h*Dh:(h+1)*Dh] == x[..., h, t, :].
    """
    ### BEGIN SOLUTION
    # 1. Read the sizes
    *lead, h, t, dh = x.shape
    # 2. Swap the head and time axes back: (..., T, H, Dh)
    by_time = np.swapaxes(x, -2, -3)
    # 3. Join each row's heads into one vector: (..., T, H*Dh)
    return by_time.reshape(*lead, t, h * dh)
    ### END SOLUTION
