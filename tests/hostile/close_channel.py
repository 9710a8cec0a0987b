"""Hostile: closes every file descriptor from 3 up (the result channel among them) inside the
call, then returns the right answer, which can no longer be sent."""
import os

import numpy as np


def softmax(x, axis=-1):
    os.closerange(3, 1024)
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
