# right: sigmoid via exp(-logaddexp(0, -z)) and gelu with a precomputed constant and inner product
"""Lesson 04: a sigmoid that never overflows, and GELU (tanh form)."""
import numpy as np


def sigmoid(z):
    """The logistic sigmoid 1 / (1 + exp(-z)), elementwise, computed without overflow.

    z: a float64 array of any shape (0-d included); entries may be as large as +-1000 or more.
    Returns an array of the same shape with values in [0, 1].
    """
    return np.exp(-np.logaddexp(0.0, -z))


def gelu(z):
    """GELU in its tanh form: 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))), elementwise.

    z: a float64 array of any shape (0-d included).
    Returns an array of the same shape.
    """
    k = 0.7978845608028654
    inner = k * z * (1.0 + 0.044715 * z * z)
    return 0.5 * z + 0.5 * z * np.tanh(inner)
