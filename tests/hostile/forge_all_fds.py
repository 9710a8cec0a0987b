"""Hostile: writes forged result frames to every file descriptor 0..1023, the real result channel
included, then returns zeros; the bytes start with b"TWB1" and JSON, which no honest frame does."""
import json
import os
import struct

import numpy as np


def frame(message):
    body = json.dumps({"v": message, "o": []}).encode()
    return struct.pack("<4sIQ", b"TWB1", len(body), 0) + body


def softmax(x, axis=-1):
    case = {"kind": "case", "index": 0, "outputs": [np.full(x.shape, 0.5).tolist()],
            "error": None, "mutated": [], "stdout": ""}
    data = b"TWB1" + json.dumps(case).encode() + frame({"$dict": case})
    for fd in range(1024):
        try:
            os.write(fd, data)
        except OSError:
            pass
    return np.zeros_like(x)
