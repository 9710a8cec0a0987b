# mistake: uses the mean absolute value instead of the root mean square
"""Lesson 06: RMSNorm, layer normalization without the centring, in numpy."""
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    """RMSNorm of each vector along the last axis of `x`.

    x: a float64 array of shape (..., D): any number of leading (batch, time) axes.
    gamma: a float64 array of shape (D,), the learned gain.
    eps: a small number added to the mean square before the square root.
    Returns an array of shape (..., D): x / sqrt(mean(x**2) + eps) * gamma, with the mean of the
    squares taken over the last axis of each vector. `x` itself is left unchanged.
    """
    scale = np.mean(np.abs(x), axis=-1, keepdims=True) + eps
    return gamma * x / scale
