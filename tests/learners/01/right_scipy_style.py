import numpy as np


def softmax(x, axis=-1):
    shift = x.max(axis=axis, keepdims=True)
    z = np.subtract(x, shift)
    np.exp(z, out=z)
    z /= z.sum(axis=axis, keepdims=True)
    return z
