# took the mean and variance over the whole array instead of each vector
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    return (x - x.mean()) / np.sqrt(x.var() + eps) * gamma + beta
