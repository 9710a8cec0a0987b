import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    sq = np.square(x).sum(axis=-1, keepdims=True)
    rms = np.sqrt(sq / x.shape[-1] + eps)
    return np.multiply(np.divide(x, rms), gamma)
