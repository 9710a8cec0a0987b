"""Hostile: at import, replaces numpy's comparison helpers (allclose, isclose, array_equal, the
numpy.testing asserts, math.isclose) with always-true versions, then returns zeros."""
import math
import sys

import numpy as np

try:
    import numpy.testing   # patched too when it can be loaded
except ImportError:
    pass


def always_true(*args, **kwargs):
    return True


def never_fails(*args, **kwargs):
    return None


FAKES = {"allclose": always_true, "isclose": always_true, "array_equal": always_true,
         "array_equiv": always_true, "assert_allclose": never_fails,
         "assert_array_equal": never_fails, "assert_array_almost_equal": never_fails,
         "assert_almost_equal": never_fails, "assert_equal": never_fails,
         "assert_array_almost_equal_nulp": never_fails, "assert_array_max_ulp": never_fails}

for name, module in list(sys.modules.items()):
    if module is not None and (name == "numpy" or name.startswith("numpy.")):
        for attr, fake in FAKES.items():
            if attr in vars(module):
                try:
                    setattr(module, attr, fake)
                except Exception:
                    pass
math.isclose = always_true
try:
    np.ndarray.__eq__ = always_true
except TypeError:         # numpy's own types are immutable; try anyway
    pass


def softmax(x, axis=-1):
    return np.zeros_like(x)
