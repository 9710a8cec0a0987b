import numpy as np


def split_heads(x, n_heads):
    nd = x.ndim
    y = x.reshape(*x.shape[:-1], n_heads, -1)
    perm = list(range(nd - 2)) + [nd - 1, nd - 2, nd]
    return y.transpose(perm)


def merge_heads(x):
    nd = x.ndim
    perm = list(range(nd - 3)) + [nd - 2, nd - 3, nd - 1]
    y = x.transpose(perm)
    return y.reshape(*y.shape[:-2], -1)
