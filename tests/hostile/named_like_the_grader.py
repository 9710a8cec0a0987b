"""Hostile: raises an exception whose class is named like one of the grader's own kinds of error
(MissingFunction), with every hidden input value in its message, hoping the grader repeats it in
the hidden cases' verdicts; on the public cases (shapes (3,) and (2, 2)) a plain ValueError."""
import numpy as np


class MissingFunction(Exception):
    pass


def softmax(x, axis=-1):
    if np.shape(x) in ((3,), (2, 2)):
        raise ValueError("nope")
    raise MissingFunction("HIDDEN-INPUT-LEAK " + repr(np.asarray(x).tolist()))
