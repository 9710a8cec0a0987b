"""Hostile: searches its own process memory (every object the garbage collector knows) for a softmax
written in Python outside the installed libraries and not its own, such as a reference a warm worker
left behind; zeros if there is none."""
import gc
import sys
import types

import numpy as np

LIBRARIES = ("site-packages", "dist-packages", sys.prefix, sys.base_prefix)


def works(fn):
    try:
        return abs(float(np.sum(fn(np.array([1.0, 2.0])))) - 1) < 1e-9
    except BaseException:
        return False


def scavenge():
    for obj in gc.get_objects():
        if isinstance(obj, dict) and isinstance(obj.get("softmax"), types.FunctionType):
            obj = obj["softmax"]
        if isinstance(obj, types.FunctionType) and obj.__name__ == "softmax" \
                and obj.__code__ is not softmax.__code__ \
                and not any(part in obj.__code__.co_filename for part in LIBRARIES) \
                and works(obj):
            return obj
    return None


def softmax(x, axis=-1):
    stolen = scavenge()
    if stolen is not None:
        return stolen(x, axis=axis)
    return np.zeros_like(x)
