import math

import numpy as np

C = math.sqrt(2 / math.pi)


def sigmoid(z):
    z = np.asarray(z, dtype=np.float64)
    out = np.empty_like(z)
    pos = z >= 0
    neg = ~pos
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    ez = np.exp(z[neg])
    out[neg] = ez / (1.0 + ez)
    return out


def gelu(z):
    inner = C * (z + 0.044715 * np.power(z, 3))
    return z * (1 + np.tanh(inner)) / 2
