"""Real `nbgrader autograde` on a class's files of one lesson, in a temporary course: the
exported notebook, each learner's file in its answer cell, nbgrader's own scores read back."""
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from grader.notebooks.nbgrader_export import export
from grader.runner.workers import GRADER_HOME

ASSIGNMENT = "bench"
BIN = Path(sys.executable).parent


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
    env = {**os.environ, "PATH": f"{BIN}:{os.environ.get('PATH', '')}", "WORKBOOK_ROOT": GRADER_HOME}
    done = subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise NbgraderFailed(f"nbgrader {args[0]} failed: {(done.stdout + done.stderr)[-2000:]}")


def submit(course, lesson, learner, source):
    """The released notebook with `source` in its answer cell, as nbgrader collects it."""
    released = json.loads((course / "release" / ASSIGNMENT / f"{lesson.id}.ipynb").read_text())
    [answer] = [c for c in released["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
    answer["source"] = source
    folder = course / "submitted" / learner / ASSIGNMENT
    folder.mkdir(parents=True)
    (folder / f"{lesson.id}.ipynb").write_text(json.dumps(released))


def scores(course, lesson, learners):
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        found = {who: gb.find_submission_notebook(lesson.id, ASSIGNMENT, who) for who in learners}
        return {who: (nb.score, nb.max_score) for who, nb in found.items()}


def autograde(roadmap, lesson, sources, course):
    """Export `lesson` as a course in `course`, release it, submit {learner: source}, and time
    `nbgrader autograde`; returns the Autograded."""
    course = Path(course)
    export(roadmap, [lesson], course, ASSIGNMENT)
    nbgrader(course, "generate_assignment", ASSIGNMENT)
    for learner, source in sources.items():
        submit(course, lesson, learner, source)
    start = time.perf_counter()
    nbgrader(course, "autograde", ASSIGNMENT, "--create")
    seconds = time.perf_counter() - start
    return Autograded(seconds, scores(course, lesson, sources))
