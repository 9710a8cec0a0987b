"""Hostile: hunts (for up to 5 s) through the temp folders and the folders above the working
directory for another learner's submission, .../alice/01-softmax/solution.py, and runs it."""
import os
import tempfile
import time
from pathlib import Path

import numpy as np

WANTED = ("alice", "01-softmax", "solution.py")
SKIP_NAMES = {".venv", "site-packages", "node_modules", ".git", "__pycache__"}
MAX_DEPTH = 10


def roots():
    found = [tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm", os.environ.get("TMPDIR"),
             os.environ.get("HOME")]
    found += [str(p) for p in Path.cwd().parents if p != Path("/")]
    seen = set()
    for root in found:
        if root and os.path.isdir(root) and os.path.realpath(root) not in seen:
            seen.add(os.path.realpath(root))
            yield root


def candidates(seconds):
    deadline = time.monotonic() + seconds
    for root in roots():
        base = root.rstrip("/").count("/")
        for folder, dirs, files in os.walk(root):
            if time.monotonic() > deadline:
                return
            if folder.count("/") - base >= MAX_DEPTH:
                dirs[:] = []
            dirs[:] = [d for d in dirs if d not in SKIP_NAMES]
            if "solution.py" in files and tuple(Path(folder).parts[-2:]) == WANTED[:2]:
                yield os.path.join(folder, "solution.py")


def steal():
    for path in candidates(5.0):
        try:
            namespace = {"__name__": "stolen"}
            exec(compile(Path(path).read_text(), path, "exec"), namespace)
            return namespace["softmax"]
        except Exception:
            continue
    return None


STOLEN = steal()


def softmax(x, axis=-1):
    if STOLEN is not None:
        return STOLEN(x, axis=axis)
    return np.zeros_like(x)
