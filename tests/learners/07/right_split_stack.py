import numpy as np


def split_heads(x, n_heads):
    # np.split cuts the columns into n_heads equal blocks, np.stack puts them on a new head axis
    return np.stack(np.split(x, n_heads, axis=-1), axis=-3)


def merge_heads(x):
    n_heads = x.shape[-3]
    parts = np.split(x, n_heads, axis=-3)
    return np.concatenate(parts, axis=-1)[..., 0, :, :]
