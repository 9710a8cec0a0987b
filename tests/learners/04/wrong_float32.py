# computed GELU in float32
import numpy as np


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def gelu(z):
    z = np.float32(z)
    return (np.float32(0.5) * z * (1 + np.tanh(np.float32(0.7978845608) * (z + np.float32(0.044715) * z ** 3))))
