import numpy as np


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    half = d // 2
    freq = np.exp(-np.log(theta) * (2 * np.arange(half) / d))
    a = positions.astype(np.float64).reshape(-1, 1) * freq.reshape(1, -1)
    c, s = np.cos(a), np.sin(a)
    x1, x2 = np.split(x, 2, axis=-1)
    out = np.empty_like(x)
    out[..., :half] = x1 * c - x2 * s
    out[..., half:] = x2 * c + x1 * s
    return out
