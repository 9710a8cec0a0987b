"""Hostile: at import, leaves a daemon behind (fork, setsid, fork, sleep 600 s) that escapes the
child's process group; softmax itself is correct."""
import os
import time

import numpy as np


def daemon():
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


try:
    daemon()
except OSError:
    pass


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
