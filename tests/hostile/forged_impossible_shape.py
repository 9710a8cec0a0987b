"""Hostile: writes its own result frame to the real result channel (file descriptor 3): a case whose
output is an empty array of shape (0, 10**30), which numpy cannot even make, then exits."""
import json
import os
import struct


def softmax(x, axis=-1):
    case = {"kind": "case", "index": 0, "error": None, "mutated": [], "stdout": "",
            "outputs": [{"$array": ["float64", [0, 10**30], 0]}]}
    body = json.dumps({"v": {"$dict": case}, "o": [[0, 0]]}).encode()
    os.write(3, struct.pack("<4sIQ", b"TWB1", len(body), 0) + body)
    os._exit(0)
