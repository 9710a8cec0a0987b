import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std2 = x.var(axis=-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(std2 + eps) * gamma + beta
