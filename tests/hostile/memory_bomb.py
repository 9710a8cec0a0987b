"""Hostile: asks for 64 GiB in one allocation inside the call (the memory limit must refuse it)."""
import numpy as np


def softmax(x, axis=-1):
    hog = bytearray(64 << 30)
    hog[-1] = 1
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
