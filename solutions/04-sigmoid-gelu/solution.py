"""Lesson 04: a sigmoid that never overflows, and GELU (tanh form)."""
import numpy as np


def sigmoid(z):
    """The logistic sigmoid 1 / (1 + exp(-z)), elementwise, computed without overflow.

    z: a float64 array of any shape (0-d included); entries may be as large as +-1000 or more.
    Returns an array of the same shape with values in [0, 1].
    """
    ### BEGIN SOLUTION
    # 1. sigma(z) = 1/2 (1 + tanh(z/2)): tanh saturates at +-1 and never overflows
    return 0.5 * (1.0 + np.tanh(0.5 * z))
    ### END SOLUTION


def gelu(z):
    """GELU in its tanh form: 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))), elementwise.

    z: a float64 array of any shape (0-d included).
    Returns an array of the same shape.
    """
    ### BEGIN SOLUTION
    # 1. The inner polynomial, scaled by sqrt(2/pi)
    inner = np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)
    # 2. The gate 1/2 (1 + tanh(inner)) lies in [0, 1]; it multiplies z
    return 0.5 * z * (1.0 + np.tanh(inner))
    ### END SOLUTION
