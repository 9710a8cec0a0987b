# divided by the L2 norm (np.linalg.norm) without dividing by sqrt(D)
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.sqrt(n ** 2 + eps) * gamma
