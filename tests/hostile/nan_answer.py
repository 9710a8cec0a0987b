"""Hostile: returns NaN everywhere, hoping a careless comparison treats NaN as equal to anything."""
import numpy as np


def softmax(x, axis=-1):
    return np.full(x.shape, np.nan)
