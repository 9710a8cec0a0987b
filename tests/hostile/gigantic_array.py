"""Hostile: returns a 10^6 x 10^6 array (a broadcast view: no memory here, 8 TB if copied)."""
import numpy as np


def softmax(x, axis=-1):
    return np.broadcast_to(np.float64(0.0), (10**6, 10**6))
