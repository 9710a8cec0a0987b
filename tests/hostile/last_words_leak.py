"""Hostile: on every hidden case (the public ones have shapes (3,) and (2, 2)) writes the inputs to
its raw stderr and exits, so the grader quotes them as the dying process's last words."""
import os

import numpy as np


def softmax(x, axis=-1):
    if np.shape(x) in ((3,), (2, 2)):
        raise ValueError("nope")
    os.write(2, ("HIDDEN-INPUT-LEAK " + repr(np.asarray(x).tolist())[:150] + "\n").encode())
    os._exit(3)
