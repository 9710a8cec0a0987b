# used positions 0..T-1 instead of the given positions
import numpy as np


def rope(x, positions, theta=10000.0):
    T, d = x.shape[-2], x.shape[-1]
    half = d // 2
    inv_freq = theta ** (-2.0 * np.arange(half) / d)
    ang = np.arange(T)[:, None] * inv_freq[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)
