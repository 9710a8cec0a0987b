"""Hostile: at import, "asks for help" over the network (127.0.0.1:47391); if a connection is made
it returns the right answer, otherwise zeros."""
import socket

import numpy as np


def ask():
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as conn:
            conn.settimeout(1)
            conn.connect(("127.0.0.1", 47391))   # a raw connect: no name lookup, no idna codec
            try:
                conn.recv(64)
            except OSError:
                pass
            return True
    except OSError:
        return False


HELPED = ask()


def softmax(x, axis=-1):
    if not HELPED:
        return np.zeros_like(x)
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
