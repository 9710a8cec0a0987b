# right: two-branch stable sigmoid using exp(-|z|), and GELU via the sigmoid identity
"""Lesson 04: a sigmoid that never overflows, and GELU (tanh form)."""
import numpy as np


def sigmoid(z):
    """The logistic sigmoid 1 / (1 + exp(-z)), elementwise, computed without overflow.

    z: a float64 array of any shape (0-d included); entries may be as large as +-1000 or more.
    Returns an array of the same shape with values in [0, 1].
    """
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def gelu(z):
    """GELU in its tanh form: 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))), elementwise.

    z: a float64 array of any shape (0-d included).
    Returns an array of the same shape.
    """
    z = np.asarray(z, dtype=np.float64)
    u = np.sqrt(2.0 / np.pi) * (z + 0.044715 * z * z * z)
    return z * sigmoid(2.0 * u)
