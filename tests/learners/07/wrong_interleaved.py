# reshaped to (T, D/H, H), so head h gets every H-th column instead of a contiguous block
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    y = x.reshape(*batch, t, d // n_heads, n_heads)
    return np.moveaxis(y, -1, -3)


def merge_heads(x):
    *batch, h, t, hd = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, t, h * hd)
