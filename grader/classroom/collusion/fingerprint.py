"""A short hash of a case's outputs, as the grader decoded them from the learner's child: equal
values of equal types hash alike, however the code that made them was written."""
import hashlib

import numpy as np

from grader.runner.child.wire import NUMBERS, Tensor


def feed(value, digest):
    """Feed `value` to `digest` in a form that tells types, shapes and contents apart."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.ascontiguousarray(value)
        if array.dtype.hasobject:
            digest.update(b"objects")
            feed(array.tolist(), digest)
            return
        digest.update(f"array {array.dtype.str} {array.shape}:".encode())
        digest.update(array.tobytes())
        return
    if isinstance(value, Tensor):       # a torch tensor, as the wire brings it: its values whole
        digest.update(b"tensor ")
        feed(value.array, digest)
        return
    if isinstance(value, (list, tuple)):
        digest.update(f"{type(value).__name__} {len(value)}[".encode())
        kinds = set(map(type, value))
        if len(kinds) == 1 and (kind := kinds.pop()) in NUMBERS:  # a row: fed in the same bytes
            name = kind.__name__
            digest.update(f"{name} {f';,{name} '.join(map(repr, value))};,".encode())
        else:
            for item in value:
                feed(item, digest)
                digest.update(b",")
        digest.update(b"]")
        return
    if isinstance(value, dict):
        digest.update(f"dict {len(value)}{{".encode())
        for key in sorted(value, key=repr):
            feed(key, digest)
            digest.update(b":")
            feed(value[key], digest)
        digest.update(b"}")
        return
    digest.update(f"{type(value).__name__} {value!r};".encode("utf-8", "surrogateescape"))


def output_hash(outputs):
    """16 hex digits standing for a case's outputs (one value per call); None without outputs."""
    if outputs is None:
        return None
    digest = hashlib.sha256()
    try:
        feed(outputs, digest)
    except Exception:       # a value this cannot read: its text stands for it
        digest = hashlib.sha256(repr(outputs).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:16]
