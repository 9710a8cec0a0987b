# mistake: ignores positions and uses 0..T-1
"""Lesson 15: rotary position embeddings (RoPE), in the rotate-half convention of LLaMA."""
import numpy as np


def rope(x, positions, theta=10000.0):
    """Rotary position embedding of `x`, rotate-half (half-split) convention.

    x: a float64 array of shape (..., T, d), d even: one d-vector per position (any leading axes).
    positions: an int array of shape (T,): the position of each of the T rows (it need not start
        at 0, nor be consecutive).
    theta: the base of the frequencies.
    Column i is paired with column i + d/2 (i = 0 .. d/2 - 1), and the pair is rotated by the angle
    positions[t] * theta ** (-2 i / d), in radians:
        out[..., t, i]       = x[..., t, i] * cos - x[..., t, i + d/2] * sin
        out[..., t, i + d/2] = x[..., t, i + d/2] * cos + x[..., t, i] * sin
    Returns an array of the same shape as x; x itself is left unchanged.
    """
    d = x.shape[-1]
    half = d // 2
    inv_freq = theta ** (-2.0 * np.arange(half) / d)
    angles = np.arange(x.shape[-2], dtype=np.float64)[:, None] * inv_freq[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    x1 = x[..., :half]
    x2 = x[..., half:]
    out1 = x1 * cos - x2 * sin
    out2 = x2 * cos + x1 * sin
    return np.concatenate([out1, out2], axis=-1)
