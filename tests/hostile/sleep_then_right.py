"""Hostile: the right answer, but only after sleeping 3 s, past the per-case time limit."""
import time

import numpy as np


def softmax(x, axis=-1):
    time.sleep(3)
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
