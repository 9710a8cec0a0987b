"""Hostile: softmax never returns (an endless loop inside the call)."""
import numpy as np


def softmax(x, axis=-1):
    while True:
        pass
    return np.zeros_like(x)
