"""Hostile: returns an object that equals anything (__eq__ is always True) and converts to the right
array through __array__; the wire codec must refuse it, not trust its conversions."""
import numpy as np


class Anything:
    def __init__(self, values):
        self.values = values

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, key):
        return self.values[key]

    def __getattr__(self, name):    # shape, dtype, tolist, ...
        return getattr(self.values, name)


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return Anything(e / np.sum(e, axis=axis, keepdims=True))
