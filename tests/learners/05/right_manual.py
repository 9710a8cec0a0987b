import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    mu = np.sum(x, axis=-1, keepdims=True) / d
    centered = x - mu
    var = np.sum(centered * centered, axis=-1, keepdims=True) / d
    inv_std = 1.0 / np.sqrt(var + eps)
    return gamma * (centered * inv_std) + beta
