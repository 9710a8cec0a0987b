# in merge_heads moved the head axis to the end, which interleaves the columns
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    *batch, h, t, hd = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, t, h * hd)
