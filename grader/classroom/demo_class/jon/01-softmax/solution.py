import numpy as np


def softmax(x, axis=-1):
    top = x.max(axis=axis, keepdims=True)
    z = np.exp(x - top)
    return z / z.sum(axis=axis, keepdims=True)
