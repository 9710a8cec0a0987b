# computed in float32 to save memory, losing precision
import numpy as np


def softmax(x, axis=-1):
    x32 = x.astype(np.float32)
    e = np.exp(x32 - np.max(x32, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
