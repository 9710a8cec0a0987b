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
    ### BEGIN SOLUTION
    # 1. The mean of each vector, keeping its axis so it broadcasts back against x
    mean = np.mean(x, axis=-1, keepdims=True)
    # 2. Centre the vectors, and take the population variance (divide by D, not D - 1)
    centred = x - mean
    var = np.mean(centred ** 2, axis=-1, keepdims=True)
    # 3. Scale to unit variance; eps goes inside the square root
    x_hat = centred / np.sqrt(var + eps)
    # 4. The learned gain and shift, one per feature
    return x_hat * gamma + beta
    ### END SOLUTION
