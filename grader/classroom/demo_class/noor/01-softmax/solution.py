import numpy as np


def softmax(x, axis=-1):
    shifted = x - x.max(-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(-1, keepdims=True)
