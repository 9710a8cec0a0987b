import numpy as np


def softmax(x, axis=-1):
    exps = np.exp(x)
    return exps / exps.sum(axis=axis, keepdims=True)
