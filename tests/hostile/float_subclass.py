"""Hostile: returns nested lists of a float subclass (right values, == always True)."""
import numpy as np


class Sly(float):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = float.__hash__


def wrap(value):
    return [wrap(v) for v in value] if isinstance(value, list) else Sly(value)


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return wrap((e / np.sum(e, axis=axis, keepdims=True)).tolist())
