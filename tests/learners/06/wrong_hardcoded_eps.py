# hard-coded eps=1e-6 from a LLaMA config and ignored the eps argument
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    ms = np.mean(x ** 2, axis=-1, keepdims=True)
    return x / np.sqrt(ms + 1e-6) * gamma
