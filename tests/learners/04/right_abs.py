import numpy as np


def sigmoid(z):
    e = np.exp(-np.abs(z))          # always in (0, 1]
    return np.where(z >= 0, 1 / (1 + e), e / (1 + e))


def gelu(z):
    u = np.sqrt(2 / np.pi) * (z + 0.044715 * z * z * z)
    # 0.5 (1 + tanh u) == sigmoid(2u)
    return z * sigmoid(2 * u)
