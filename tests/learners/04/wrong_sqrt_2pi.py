# wrote sqrt(2*pi) instead of sqrt(2/pi)
import numpy as np


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 * np.pi) * (z + 0.044715 * z ** 3)))
