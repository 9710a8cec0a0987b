"""Hostile: imports the grader's trusted side (grader.lessons.roadmap, grader.lessons.lesson) to load lesson 01's
reference and calls it; returns zeros if the grader cannot be reached."""
from pathlib import Path

import numpy as np


def steal():
    try:
        import grader
        from grader.lessons import lesson, roadmap
        root = Path(grader.__file__).resolve().parent.parent
        return lesson.load(roadmap.load(root), "01").namespace()["softmax"]
    except Exception:
        return None


STOLEN = steal()


def softmax(x, axis=-1):
    if STOLEN is not None:
        return STOLEN(x, axis=axis)
    return np.zeros_like(x)
