import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    # float32 is what GPUs use, so I use it too
    x, gamma, beta = (a.astype(np.float32) for a in (x, gamma, beta))
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
