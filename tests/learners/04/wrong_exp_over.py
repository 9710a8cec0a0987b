# rewrote sigmoid as exp(z) / (1 + exp(z)), which overflows (inf/inf) for large positive z
import numpy as np


def sigmoid(z):
    e = np.exp(z)
    return e / (1.0 + e)


def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)))
