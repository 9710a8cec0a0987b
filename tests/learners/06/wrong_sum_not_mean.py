# used the sum of squares instead of the mean of squares
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    ss = np.sum(x ** 2, axis=-1, keepdims=True)
    return x / np.sqrt(ss + eps) * gamma
