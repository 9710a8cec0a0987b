"""Hostile: at import, opens files until the open-files limit refuses more, and keeps them all open;
softmax itself is correct (the grader must still be able to report it)."""
import os

import numpy as np

HELD = []
try:
    while True:
        HELD.append(os.open(os.devnull, os.O_RDONLY))
except OSError:
    pass


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
