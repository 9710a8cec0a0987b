"""Hostile: imports the grader's trusted side (grader.lessons.roadmap, grader.lessons.lesson) to load lesson 01's
reference and calls it; returns zeros if the grader cannot be reached. (It imports by name, so that the
numpy lesson's static rule, which refuses an `import` of anything beyond numpy, does not stop it first.)"""
import importlib
from pathlib import Path

import numpy as np


def steal():
    try:
        grader = importlib.import_module("grader")
        lesson = importlib.import_module("grader.lessons.lesson")
        roadmap = importlib.import_module("grader.lessons.roadmap")
        root = Path(grader.__file__).resolve().parent.parent
        return lesson.load(roadmap.load(root), "01").namespace()["softmax"]
    except Exception:
        return None


STOLEN = steal()


def softmax(x, axis=-1):
    if STOLEN is not None:
        return STOLEN(x, axis=axis)
    return np.zeros_like(x)
