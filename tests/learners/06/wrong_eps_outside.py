# added eps to the RMS instead of inside the square root
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    rms = np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True))
    return x / (rms + eps) * gamma
