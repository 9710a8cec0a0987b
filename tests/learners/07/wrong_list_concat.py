# merged by concatenating list(x), which iterates over the first axis (the batch when there is one)
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    return np.concatenate(list(x), axis=-1)
