# mistake: eps added to the standard deviation instead of the variance
"""Lesson 05: layer normalization over the last axis, written by hand in numpy."""
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalization of each vector along the last axis of `x`.

    x: a float64 array of shape (..., D): any number of leading (batch, time) axes.
    gamma, beta: float64 arrays of shape (D,), the learned gain and shift.
    eps: a small number added to the variance before the square root.
    Returns an array of shape (..., D): (x - mean) / sqrt(var + eps) * gamma + beta, where the
    mean and the (biased, population) variance are taken over the last axis of each vector.
    `x` itself is left unchanged.
    """
    mu = np.mean(x, axis=-1, keepdims=True)
    std = np.std(x, axis=-1, keepdims=True)
    return gamma * (x - mu) / (std + eps) + beta
