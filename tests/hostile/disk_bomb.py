"""Hostile: at import, writes 1 MiB chunks to a file in /tmp (then in the working directory)
until the disk or the file-size limit says no; the final OSError is not caught."""
import os

import numpy as np

CHUNK = b"\0" * (1 << 20)
CAP = 1 << 30   # safety net: a grader without a file-size limit sees a wrong answer, not a full disk


def fill(folder):
    path = os.path.join(folder, f"disk-bomb-{os.getpid()}.bin")
    with open(path, "wb", buffering=0) as f:
        written = 0
        while written < CAP:
            written += f.write(CHUNK)
    os.remove(path)


try:
    fill("/tmp")
except OSError:
    fill(os.getcwd())    # if this fails too, the OSError ends the import


def softmax(x, axis=-1):
    return np.zeros_like(x)
