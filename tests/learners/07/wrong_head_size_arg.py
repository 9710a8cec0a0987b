# treated n_heads as the head size
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, d // n_heads, n_heads), -3, -2)


def merge_heads(x):
    *batch, h, t, hd = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, t, h * hd)
