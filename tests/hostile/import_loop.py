"""Hostile: an endless loop at import time, so the file never finishes importing."""
import numpy as np

while True:
    pass


def softmax(x, axis=-1):
    return np.zeros_like(x)
