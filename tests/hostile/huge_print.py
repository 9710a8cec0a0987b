"""Hostile: prints about 50 MB per call (40 MB through print, 10 MB straight to the real stdout),
then returns the right answer."""
import sys

import numpy as np

LINE = "spam " * 200_000    # 1 MB


def softmax(x, axis=-1):
    for _ in range(40):
        print(LINE)
    real = sys.__stdout__
    if real is not None:
        for _ in range(10):
            real.write(LINE)
        real.flush()
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
