# wrote the rotated halves back into x, changing the caller array
import numpy as np


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    half = d // 2
    inv_freq = theta ** (-2.0 * np.arange(half) / d)
    ang = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :half].copy(), x[..., half:].copy()
    x[..., :half] = x1 * c - x2 * s
    x[..., half:] = x2 * c + x1 * s
    return x
