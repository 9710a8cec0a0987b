"""The baseline `make bench` compares with: a conventional nbgrader assignment of one lesson, graded
by the real `nbgrader autograde` with its default configuration, which runs every submission's
notebook in a Jupyter kernel: the answer cell, then one graded test cell per case (hidden cases in
nbgrader's `### BEGIN HIDDEN TESTS` regions) that calls the answer on the case's inputs and asserts
the reference's answer, or the case's own property check. The inputs, answers and checks travel in
a data file beside the notebook, as instructors ship test data. nbgrader's own scores are read back.

(Not the workbook's nbgrader export: that one grades with the workbook's grader and runs no kernel,
so timing it would time the grader twice.)
"""
import os
import pickle
import shutil
import subprocess
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path

import cloudpickle
import nbformat

from grader.judge import points
from grader.notebooks.build import KERNEL
from grader.notebooks.nbgrader_export import meta

ASSIGNMENT = "bench"
BIN = Path(sys.executable).parent
DATA = "cases.pkl"
CONFIG = """\
c = get_config()
c.CourseDirectory.course_id = "bench"
c.ExecutePreprocessor.timeout = 120
"""
SETUP = f"""\
import pickle
import numpy as np

with open({DATA!r}, "rb") as f:
    CASES, RTOL, ATOL = pickle.load(f)


def as_array(value):
    return value.detach().numpy() if hasattr(value, "detach") else np.asarray(value)


def same(got, want):
    if isinstance(want, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(want)
                and all(same(g, w) for g, w in zip(got, want)))
    if isinstance(want, dict):
        return (isinstance(got, dict) and got.keys() == want.keys()
                and all(same(got[k], want[k]) for k in want))
    if want is None or isinstance(want, (str, bool)):
        return got == want
    got, want = as_array(got), as_array(want)
    return got.shape == want.shape and np.allclose(got, want, rtol=RTOL, atol=ATOL, equal_nan=True)


def run_case(n):
    case = CASES[n]
    got = []
    for call in case["calls"]:
        function = globals()[call.fn]
        if case["raises"]:
            try:
                function(*call.args, **call.kwargs)
            except Exception as exc:
                assert type(exc).__name__ == case["raises"], f"raised {{type(exc).__name__}}"
                return
            raise AssertionError(f"did not raise {{case['raises']}}")
        got.append(function(*call.args, **call.kwargs))
    if case["check"] is not None:
        problem = case["check"](got, case["expected"], case["calls"])
        assert problem is None, problem
    else:
        assert same(got, case["expected"]), "not the expected answer"
"""


class NbgraderFailed(RuntimeError):
    """nbgrader exited with an error; the message holds the end of what it printed."""


@dataclass
class Autograded:
    seconds: float         # wall time of `nbgrader autograde`, start-up included
    scores: dict           # {learner: (points, max points)}

    @property
    def per_submission(self):
        return self.seconds / max(len(self.scores), 1)


def nbgrader(course, *args, timeout=3600):
    env = {**os.environ, "PATH": f"{BIN}:{os.environ.get('PATH', '')}"}
    done = subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise NbgraderFailed(f"nbgrader {args[0]} failed: {(done.stdout + done.stderr)[-2000:]}")


def case_data(lesson):
    """What the test cells read: per case its calls, the reference's answers, its check and the
    exception it must raise; and the lesson's tolerances."""
    cases = []
    for case, outcome in zip(lesson.cases, lesson.expected):
        calls = [types.SimpleNamespace(fn=c.fn, args=c.args, kwargs=c.kwargs) for c in case.calls]
        cases.append({"calls": calls, "expected": outcome.outputs, "check": case.check,
                      "raises": case.raises})
    cloudpickle.register_pickle_by_value(lesson.hidden)    # the checks: the kernel cannot import it
    try:
        return cloudpickle.dumps((cases, lesson.spec.rtol, lesson.spec.atol),
                                 protocol=pickle.DEFAULT_PROTOCOL)
    finally:
        cloudpickle.unregister_pickle_by_value(lesson.hidden)


def assignment_notebook(lesson):
    """The answer cell (the reference between nbgrader's solution markers), the setup cell, and a
    test cell per case, each worth an equal share of the lesson's points."""
    each = points.most(lesson) / len(lesson.cases)
    cells = [nbformat.v4.new_markdown_cell(f"# Lesson {lesson.entry.number:02d} · "
                                           f"{lesson.entry.title}"),
             nbformat.v4.new_code_cell(lesson.reference_source.rstrip("\n"),
                                       metadata=meta("answer", solution=True)),
             nbformat.v4.new_code_cell(SETUP.rstrip("\n"), metadata=meta("setup", locked=True))]
    for n, case in enumerate(lesson.cases):
        test = f"run_case({n})  # {case.name}"
        if not case.public:
            test = f"### BEGIN HIDDEN TESTS\n{test}\n### END HIDDEN TESTS"
        cells.append(nbformat.v4.new_code_cell(test, metadata=meta(
            f"case-{n}", grade=True, locked=True, points=each)))
    nb = nbformat.v4.new_notebook(cells=cells, metadata=dict(KERNEL))
    nb.nbformat_minor = 5
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"
    nbformat.validate(nb)
    return nb


def course_for(lesson, course):
    """The course folder: its config and the assignment's source notebook and data file."""
    source = course / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    (course / "nbgrader_config.py").write_text(CONFIG)
    nbformat.write(assignment_notebook(lesson), source / f"{lesson.id}.ipynb")
    (source / DATA).write_bytes(case_data(lesson))


def submit(course, lesson, learner, source):
    """The released notebook with `source` in its answer cell, and the data file, as nbgrader
    collects them."""
    released = nbformat.read(course / "release" / ASSIGNMENT / f"{lesson.id}.ipynb", as_version=4)
    [answer] = [c for c in released.cells if c.metadata.get("nbgrader", {}).get("solution")]
    answer.source = source
    folder = course / "submitted" / learner / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(released, folder / f"{lesson.id}.ipynb")
    shutil.copy(course / "release" / ASSIGNMENT / DATA, folder / DATA)


def scores(course, lesson, learners):
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        found = {who: gb.find_submission_notebook(lesson.id, ASSIGNMENT, who) for who in learners}
        return {who: (nb.score, nb.max_score) for who, nb in found.items()}


def autograde(roadmap, lesson, sources, course):
    """Make `lesson` a conventional assignment in `course`, release it, submit {learner: source},
    and time `nbgrader autograde`; returns the Autograded."""
    course = Path(course)
    course_for(lesson, course)
    nbgrader(course, "generate_assignment", ASSIGNMENT, "--create")
    for learner, source in sources.items():
        submit(course, lesson, learner, source)
    start = time.perf_counter()
    nbgrader(course, "autograde", ASSIGNMENT, "--create")
    seconds = time.perf_counter() - start
    return Autograded(seconds, scores(course, lesson, sources))
