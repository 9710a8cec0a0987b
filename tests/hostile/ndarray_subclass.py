"""Hostile: returns the right values, but as a subclass of np.ndarray whose == is always True."""
import numpy as np


class Sly(np.ndarray):
    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool)

    def __ne__(self, other):
        return np.zeros(self.shape, dtype=bool)


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return (e / np.sum(e, axis=axis, keepdims=True)).view(Sly)
