"""Hostile: on every hidden case (the public ones have shapes (3,) and (2, 2)) raises an error worded
as numpy's failed reshape, whose "shape" holds the hidden inputs, hoping the symptom that reads
reshape errors quotes it into the lesson's feedback."""
import numpy as np


def softmax(x, axis=-1):
    if np.shape(x) in ((3,), (2, 2)):
        raise ValueError("nope")
    values = ", ".join(map(str, np.asarray(x).ravel()))
    raise ValueError(f"cannot reshape array of size 6 into shape ({values} HIDDEN-INPUT-LEAK)")
