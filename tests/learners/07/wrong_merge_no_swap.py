# forgot to swap the head and time axes back before reshaping in merge_heads
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    *batch, h, t, hd = x.shape
    return x.reshape(*batch, t, h * hd)
