# right: complex numbers, pair i as x1 + i*x2 multiplied by exp(i*angle)
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
    half = x.shape[-1] // 2
    ang = np.multiply.outer(np.asarray(positions, dtype=np.float64),
                            np.exp(-2.0 * np.arange(half) / x.shape[-1] * np.log(theta)))
    z = (x[..., :half] + 1j * x[..., half:]) * np.exp(1j * ang)
    return np.concatenate([z.real, z.imag], axis=-1)
