# divided x in place
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    x /= np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    x *= gamma
    return x
