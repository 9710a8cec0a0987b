# paired neighbouring columns (2i, 2i+1), the GPT-J convention, instead of i and i + d/2
import numpy as np


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = theta ** (-np.arange(0, d, 2) / d)
    ang = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq
    c, s = np.cos(ang), np.sin(ang)
    xe, xo = x[..., 0::2], x[..., 1::2]
    out = np.stack([xe * c - xo * s, xo * c + xe * s], axis=-1)
    return out.reshape(x.shape)
