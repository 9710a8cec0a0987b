import numpy as np


def _logsumexp(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def softmax(x, axis=-1):
    # work in log space, then come back
    return np.exp(x - _logsumexp(x, axis))
