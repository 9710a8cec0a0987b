"""Hostile: computes the right answer, then overwrites its input x in place (which the lesson
forbids; the grader must notice the change)."""
import numpy as np


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    result = e / np.sum(e, axis=axis, keepdims=True)
    x.fill(0.0)
    return result
