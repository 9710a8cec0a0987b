import numpy as np


def split_heads(x, n_heads):
    t, d = x.shape[-2:]
    y = x.reshape(x.shape[:-1] + (n_heads, d // n_heads))
    return np.moveaxis(y, -2, -3)


def merge_heads(x):
    h, t, hd = x.shape[-3:]
    y = np.moveaxis(x, -3, -2)
    return y.reshape(x.shape[:-3] + (t, h * hd))
