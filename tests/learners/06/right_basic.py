import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    ms = np.mean(x ** 2, axis=-1, keepdims=True)
    return x / np.sqrt(ms + eps) * gamma
