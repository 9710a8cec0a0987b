# scaled by (1 + gamma) as in Gemma code instead of gamma
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    ms = np.mean(x ** 2, axis=-1, keepdims=True)
    return x / np.sqrt(ms + eps) * (1.0 + gamma)
