"""Hostile: looks for the reference solution (solutions/01-softmax/solution.py) above every sys.path
entry, the working directory, this file, $PYTHONPATH and $HOME; runs it if found, else zeros."""
import os
from pathlib import Path

import numpy as np

TARGET = Path("solutions", "01-softmax", "solution.py")


def starts():
    yield from (p for p in __import__("sys").path if p)
    yield os.getcwd()
    yield os.path.dirname(os.path.abspath(__file__))
    yield from (p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
    if os.environ.get("HOME"):
        yield os.environ["HOME"]


def find_reference():
    for start in starts():
        try:
            here = Path(start).resolve()
            for folder in (here, *here.parents):
                if (folder / TARGET).is_file():
                    namespace = {"__name__": "stolen"}
                    exec((folder / TARGET).read_text(), namespace)
                    return namespace["softmax"]
        except Exception:
            continue
    return None


STOLEN = find_reference()


def softmax(x, axis=-1):
    if STOLEN is not None:
        return STOLEN(x, axis=axis)
    return np.zeros_like(x)
