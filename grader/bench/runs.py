"""The benchmark's runs: one generated class graded in a fresh process (grader.bench.timed), its
grades read back from the gradebook, and the comparison with what the class should score."""
import json
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from grader.runner.workers import GRADER_HOME


@dataclass
class Timing:
    learners: int
    jobs: int
    seconds: float          # launch to the end of the run (exports written)
    first: float            # launch to the first graded job
    phases: dict = None     # {phase: [seconds, calls]}, when asked for

    @property
    def per_learner(self):
        return self.seconds / self.learners

    @property
    def per_job(self):
        return self.seconds / self.jobs


class RunFailed(RuntimeError):
    """The grading process failed; the message holds the end of what it printed."""


def grade(folder, out, lessons, learners, jobs=2, phases=False, sandboxed=True):
    """Grade the class in `folder` on `lessons` (ids) into `out`, in a fresh process; the Timing."""
    spec = {"root": GRADER_HOME, "lessons": list(lessons), "class": str(folder), "out": str(out),
            "jobs": jobs, "phases": phases, "sandboxed": sandboxed, "launched": time.time()}
    done = subprocess.run([sys.executable, "-m", "grader.bench.timed", json.dumps(spec)],
                          capture_output=True, text=True, cwd=GRADER_HOME)
    if done.returncode != 0:
        raise RunFailed(f"grading {folder} failed: {(done.stdout + done.stderr)[-2000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return Timing(learners, report["graded"], report["end"], report["first"],
                  report.get("phases"))


def gradebook_scores(out):
    """{(learner, lesson id): (score, cases passed, cases)} of the current results in out/."""
    db = sqlite3.connect(f"file:{Path(out) / 'gradebook.sqlite'}?mode=ro", uri=True)
    try:
        return {(l, s): (score, passed, total) for l, s, score, passed, total in db.execute(
            "SELECT c.learner, c.lesson, r.score, r.cases_passed, r.cases_total FROM current c "
            "JOIN results r ON r.id = c.result")}
    finally:
        db.close()


def mismatches(expected, graded):
    """[(learner, lesson, expected Expected, graded score or None)] where they differ."""
    wrong = []
    for key, expect in sorted(expected.items()):
        got = graded.get(key)
        if got is None or abs(got[0] - expect.score) > 1e-9:
            wrong.append((*key, expect, got and got[0]))
    return wrong


def nbgrader_mismatches(ours, theirs, lesson_id):
    """[(learner, our (passed, cases, score), nbgrader's (points, max))] where the two differ (both
    routes score a lesson in the same points, grader.judge.points)."""
    wrong = []
    for learner, (points, most) in sorted(theirs.items()):
        score, passed, total = ours.get((learner, lesson_id), (None, None, None))
        if score is None or abs(points - score) > 1e-9:
            wrong.append((learner, (passed, total, score), (points, most)))
    return wrong
