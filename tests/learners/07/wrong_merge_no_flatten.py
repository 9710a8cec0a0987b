# in merge_heads swapped the axes back but forgot the final reshape that joins the heads
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    return np.swapaxes(x, -3, -2)
