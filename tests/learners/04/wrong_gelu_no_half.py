# mistake: gelu forgets the leading 0.5 factor
"""Lesson 04: a sigmoid that never overflows, and GELU (tanh form)."""
import numpy as np


def sigmoid(z):
    """The logistic sigmoid 1 / (1 + exp(-z)), elementwise, computed without overflow.

    z: a float64 array of any shape (0-d included); entries may be as large as +-1000 or more.
    Returns an array of the same shape with values in [0, 1].
    """
    zc = np.clip(z, -500, 500)
    return 1.0 / (1.0 + np.exp(-zc))


def gelu(z):
    """GELU in its tanh form: 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))), elementwise.

    z: a float64 array of any shape (0-d included).
    Returns an array of the same shape.
    """
    return z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)))
