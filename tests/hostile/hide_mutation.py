"""Hostile: overwrites its input x in place, and hides it by finding the grader's snapshot of x in
the calling frames and overwriting that too; the answer itself is right."""
import sys

import numpy as np


def copies_of(value, original, x, depth=0):
    """Arrays inside `value` (lists, tuples, dicts, a few levels deep) equal to x but not x."""
    if isinstance(value, np.ndarray):
        if value is not x and value.shape == original.shape and value.dtype == original.dtype \
                and np.array_equal(value, original, equal_nan=True):
            yield value
    elif depth < 4 and isinstance(value, (list, tuple)):
        for item in value:
            yield from copies_of(item, original, x, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for item in list(value.values()):
            yield from copies_of(item, original, x, depth + 1)


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    result = e / np.sum(e, axis=axis, keepdims=True)
    original = x.copy()
    frame = sys._getframe(1)
    for _ in range(8):
        if frame is None:
            break
        for value in list(frame.f_locals.values()):
            for copy in list(copies_of(value, original, x)):
                copy.fill(0.0)
        frame = frame.f_back
    x.fill(0.0)
    return result
