"""Hostile: at import, walks the whole filesystem for up to 6 s looking for the hidden tests
(hidden_cases.py) or a reference solution.py; runs the reference it finds, else returns zeros."""
import os
import time

import numpy as np

MARKER = "### BEGIN " + "SOLUTION"     # split, so this file does not match itself
SKIP_ROOTS = {"/proc", "/sys", "/dev", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin",
              "/sbin", "/etc", "/var/lib", "/root/.pyenv", "/opt", "/run", "/boot", "/snap"}
SKIP_NAMES = {".venv", "venv", "site-packages", "dist-packages", "node_modules", ".git",
              "__pycache__"}


def candidates(seconds):
    deadline = time.monotonic() + seconds
    for folder, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if d not in SKIP_NAMES
                   and os.path.join(folder, d) not in SKIP_ROOTS]
        if "solution.py" in files:     # a reference sits beside hidden_cases.py
            yield os.path.join(folder, "solution.py")
        if time.monotonic() > deadline:
            return


def usable(path):
    """The softmax of the reference at `path`, or None."""
    if os.path.abspath(path) == os.path.abspath(__file__):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read(1 << 20)
        if MARKER not in source or "def softmax" not in source:
            return None
        namespace = {"__name__": "stolen"}
        exec(compile(source, path, "exec"), namespace)
        fn = namespace["softmax"]
        return fn if abs(fn(np.array([1.0, 2.0])).sum() - 1) < 1e-9 else None
    except Exception:
        return None


STOLEN = next(filter(None, map(usable, candidates(6.0))), None)


def softmax(x, axis=-1):
    if STOLEN is not None:
        return STOLEN(x, axis=axis)
    return np.zeros_like(x)
