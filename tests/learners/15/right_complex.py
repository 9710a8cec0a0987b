import numpy as np


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    h = d // 2
    i = np.arange(h)
    ang = np.asarray(positions)[:, None] * np.power(float(theta), -2.0 * i / d)
    z = (x[..., :h] + 1j * x[..., h:]) * np.exp(1j * ang)
    return np.concatenate([z.real, z.imag], axis=-1)
