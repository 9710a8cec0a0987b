# clipped z to [-10, 10] to dodge the overflow, which flattens the tails
import numpy as np


def sigmoid(z):
    z = np.clip(z, -10, 10)
    return 1.0 / (1.0 + np.exp(-z))


def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)))
