# took the mean without keepdims, so it broadcasts along the wrong axis
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1)
    var = x.var(axis=-1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
