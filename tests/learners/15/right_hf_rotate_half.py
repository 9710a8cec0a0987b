import numpy as np


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = 1.0 / (theta ** (np.arange(0, d, 2, dtype=np.float64) / d))
    freqs = np.outer(np.asarray(positions, dtype=np.float64), inv_freq)   # (T, d/2)
    emb = np.concatenate([freqs, freqs], axis=-1)                          # (T, d)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)
