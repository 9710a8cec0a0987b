import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    d = x.shape[-1]
    ms = np.einsum("...i,...i->...", x, x) / d
    scale = 1.0 / np.sqrt(ms + eps)
    return gamma * (x * scale[..., np.newaxis])
