"""What the test cells of an exported nbgrader notebook run: one case of our grader per cell.

The first test cell grades the answer cell's code once (in a child process with the lesson's
limits, on a warm worker), and every test cell then passes or fails with its case's verdict, the
broken rules and the diagnosis ("Why: ..."), so nbgrader's scores and feedback are ours. The
lesson (reference, hidden cases, mistakes) is loaded from the workbook the grader belongs to, at
grading time: nothing of it is in the notebook.
"""
import ast
import atexit
import hashlib
import os
import tempfile
from pathlib import Path

from grader.judge.grade import grade_file
from grader.lessons import lesson as lessons, roadmap
from grader.runner.workers import GRADER_HOME, Pool, preload_for

RESULTS = {}
POOLS = {}


class CaseFailed(AssertionError):
    """A case failed; the message says why, as `make check` would."""


def defines(source, names):
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    found = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    return set(names) <= found


def answer_code(functions):
    """The last code this kernel ran that defines the lesson's functions: the answer cell."""
    from IPython import get_ipython
    history = get_ipython().user_ns.get("In", [])
    for source in reversed(history):
        if defines(source, functions):
            return source
    raise CaseFailed("the answer cell has not run, or it does not define "
                     + ", ".join(functions) + ": run it, then the tests")


def graded(lesson_id):
    root = Path(os.environ.get("WORKBOOK_ROOT") or GRADER_HOME)
    lesson = lessons.load(roadmap.load(root), lesson_id)
    source = answer_code(lesson.spec.functions)
    key = (lesson.id, hashlib.sha256(source.encode()).hexdigest())
    if key not in RESULTS:
        preload = preload_for([lesson])
        if preload not in POOLS:
            POOLS[preload] = Pool(1, preload=preload)
            atexit.register(POOLS[preload].close)
        pool = POOLS[preload]
        with tempfile.TemporaryDirectory(prefix="nbgrader-") as tmp:
            path = Path(tmp) / "solution.py"
            path.write_text(source)
            RESULTS[key] = grade_file(lesson, path, pool)
    return RESULTS[key]


def case(lesson_id, name):
    """Pass, or raise CaseFailed with the case's verdict and the diagnosis."""
    result = graded(lesson_id)
    problems = []
    if result.error:
        problems.append(result.error)
    problems += [f"rule broken: {v.message}" for v in result.violations]
    r = next(r for r in result.cases if r.case.name == name)
    if not r.verdict.passed:
        problems.append(f"{name}: {r.verdict.message}")
    if problems:
        why = [f"Why: {d.message}" for d in result.diagnosis if not r.verdict.passed]
        message = "\n".join(dict.fromkeys(problems + why))
        print(message)
        raise CaseFailed(message)
    print(f"{name}: passed")
