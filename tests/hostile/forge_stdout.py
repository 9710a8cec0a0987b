"""Hostile: writes forged result frames (some well formed, carrying the right answer) to stdout
and stderr in every way it can, then returns a wrong answer (zeros)."""
import json
import os
import struct
import sys

import numpy as np


def reference(x, axis):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)


def frame(message, blob=b""):
    body = json.dumps({"v": message, "o": [[0, len(blob)]] if blob else []}).encode()
    return struct.pack("<4sIQ", b"TWB1", len(body), len(blob)) + body + blob


def forgeries(x, axis):
    good = reference(x, axis)
    naive = b"TWB1" + json.dumps({"kind": "case", "index": 0, "outputs": [good.tolist()],
                                  "error": None, "mutated": [], "stdout": ""}).encode()
    frames = [naive, frame({"$dict": {"kind": "imported", "error": None, "stdout": ""}})]
    for index in range(32):
        frames.append(frame({"$dict": {
            "kind": "case", "index": index, "outputs": [{"$array": ["float64", list(good.shape), 0]}],
            "error": None, "mutated": [], "stdout": ""}}, good.tobytes()))
    return b"".join(frames)


def softmax(x, axis=-1):
    data = forgeries(x, axis)
    try:
        sys.__stdout__.buffer.write(data)
        sys.__stdout__.flush()
    except Exception:
        pass
    try:
        sys.stdout.write(data.decode("latin-1"))
    except Exception:
        pass
    for fd in (1, 2):
        try:
            os.write(fd, data)
        except OSError:
            pass
    return np.zeros_like(x)
