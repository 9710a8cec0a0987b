# used the z * sigmoid(1.702 z) approximation instead of the tanh form
import numpy as np


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def gelu(z):
    return z * sigmoid(1.702 * z)
