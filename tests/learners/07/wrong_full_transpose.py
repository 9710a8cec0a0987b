# used .transpose() with no arguments, which reverses every axis
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    y = x.reshape(*batch, t, n_heads, d // n_heads)
    return y.transpose(1, 0, 2) if y.ndim == 3 else y.transpose()


def merge_heads(x):
    *batch, h, t, hd = x.shape
    y = x.transpose(1, 0, 2) if x.ndim == 3 else x.transpose()
    return y.reshape(*batch, t, h * hd)
