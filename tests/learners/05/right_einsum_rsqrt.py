import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    c = x - np.mean(x, -1)[..., None]
    var = np.einsum("...d,...d->...", c, c) / x.shape[-1]
    return np.multiply(c, (var + eps)[..., None] ** -0.5) * gamma + beta
