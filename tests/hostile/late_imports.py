"""Control, not an attack: an honest softmax whose file imports standard and numpy modules the
grader's worker did not preload; a sandbox must still let it import them."""
import decimal
import fractions
import statistics

import numpy as np
import numpy.testing

ONE = float(fractions.Fraction(3, 3)) + float(decimal.Decimal(0)) + statistics.mean([0.0])


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True) * ONE
