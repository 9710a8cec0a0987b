"""Shared fixtures: a fresh copy of the workbook (stubs generated anew), and a CLI runner."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.lessons import lesson, roadmap

from grader.runner import run
from grader.runner.workers import Pool

ROOT = Path(__file__).resolve().parent.parent
FAST = run.Limits(case_seconds=2, import_seconds=10, job_seconds=40)
GOOD_SOFTMAX = """\
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""


@pytest.fixture
def workbook(tmp_path):
    """A workbook in a temporary folder: the lesson sources, stubs generated from them, and the
    notebooks (up to date, so the build leaves them as they are)."""
    root = tmp_path / "workbook"
    shutil.copytree(ROOT / "solutions", root / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "notebooks", root / "notebooks")   # built from the same sources
    result = grader(root, "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return root


@pytest.fixture(scope="module")
def lesson_sources(tmp_path_factory):
    """A workbook holding only the lessons' sources (no stubs, no notebooks): all class grading
    reads. Tests may read it, never change it."""
    root = tmp_path_factory.mktemp("sources") / "workbook"
    shutil.copytree(ROOT / "solutions", root / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return root


def grader(root, *args, timeout=300):
    """Run the `grader` command as a learner would, on the workbook at `root`."""
    env = {**os.environ, "WORKBOOK_ROOT": str(root), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=root)


def typed(root, command, timeout=300):
    """Run `command` as a learner types it in the workbook at `root` (its own copy): a shell in the
    workbook's folder, with the project's Makefile and `.venv`. `make` is told the venv is set up
    (STAMP empty), so it runs the target's recipe as written and never installs anything."""
    root = Path(root)
    if not (root / "Makefile").exists():
        shutil.copyfile(ROOT / "Makefile", root / "Makefile")
    if not (root / ".venv").exists():
        (root / ".venv").symlink_to(ROOT / ".venv")
    env = {**os.environ, "WORKBOOK_ROOT": str(root), "COLUMNS": "200", "MAKEFLAGS": " -- STAMP="}
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=root)


@pytest.fixture(scope="session")
def softmax_lesson():
    return lesson.load(roadmap.load(ROOT), "01")


@pytest.fixture(scope="session")
def pool():
    """One warm worker (numpy and torch imported once) for the tests that grade in-process."""
    with Pool() as warm:
        yield warm


@pytest.fixture
def run_grader():
    return grader
