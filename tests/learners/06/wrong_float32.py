# computed the mean square in float32, like mixed-precision training code
import numpy as np


def rmsnorm(x, gamma, eps=1e-5):
    x32 = x.astype(np.float32)
    ms = np.mean(x32 * x32, axis=-1, keepdims=True)
    return (x32 / np.sqrt(ms + np.float32(eps))) * gamma.astype(np.float32)
