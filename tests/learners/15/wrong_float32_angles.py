# computed the angles and cos/sin in float32, as GPU code does
import numpy as np


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    half = d // 2
    inv_freq = (theta ** (-2.0 * np.arange(half) / d)).astype(np.float32)
    ang = np.asarray(positions).astype(np.float32)[:, None] * inv_freq[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1).astype(np.float64)
