# reshaped straight to (H, T, D/H) without moving the head axis
import numpy as np


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return x.reshape(*batch, n_heads, t, d // n_heads)


def merge_heads(x):
    *batch, h, t, hd = x.shape
    return x.reshape(*batch, t, h * hd)
