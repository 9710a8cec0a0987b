"""Hostile: monkeypatches the grader's own child-side code (grader.runner.child.runner and .wire) so every
case is reported as a success with no error and no outputs; softmax itself returns zeros."""
import importlib
import sys

import numpy as np


def find(name):
    try:
        return sys.modules.get(name) or importlib.import_module(name)
    except Exception:
        return None


runner = find("grader.runner.child.runner")
wire = find("grader.runner.child.wire")


def success(message):
    if isinstance(message, dict) and message.get("kind") == "case":
        return {**message, "outputs": [], "error": None, "mutated": []}
    return message


def patch(module, name, make):
    try:
        original = getattr(module, name)
        setattr(module, name, make(original))
    except Exception:
        pass


if wire is not None:
    patch(wire, "encode", lambda encode: lambda value: encode(success(value)))
if runner is not None:
    patch(runner, "send", lambda send: lambda out, message: send(out, success(message)))
    patch(runner, "run_call", lambda run_call: lambda *a, **k: (run_call(*a, **k)[0], None, []))
    patch(runner, "same", lambda same: lambda a, b: True)


def softmax(x, axis=-1):
    return np.zeros_like(x)
