# used theta ** (-i / d), dropping the factor 2 in the exponent
import numpy as np


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    half = d // 2
    inv_freq = theta ** (-np.arange(half) / d)
    ang = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
