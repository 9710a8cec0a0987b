# mistake: statistics over axis 0 (like batch norm) instead of the last axis
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
    mu = x.mean(axis=0, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=0, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta
