"""The workbook a learner works in: its roadmap, the learner's progress and each lesson's state."""
from pathlib import Path

from grader.lessons import build as builder
from grader.lessons import roadmap
from grader.lessons.lesson import load

from . import warm
from .progress import Progress, file_digest


class Workbook:
    """The repository the commands work on: its roadmap and the learner's progress."""

    def __init__(self, root):
        self.root = Path(root)
        self.roadmap = roadmap.load(self.root)
        self.progress = Progress(self.root)
        self.lock = builder.load_lock(self.root)

    def started(self, entry):
        return builder.started(self.root, entry, self.lock)

    def lesson(self, name):
        """The lesson named (in the warm check server, the one it kept when its files are the same)."""
        lesson = load(self.roadmap, name)
        return warm.KEPT.lesson(lesson) if warm.KEPT is not None else lesson

    def exercise(self, entry):
        return self.root / "exercises" / entry.id / "solution.py"

    def record(self, lesson, result):
        """Remember a check of the lesson's exercise (from the terminal or a notebook): passed,
        score, and the fingerprint of the bytes it graded. A check of the untouched stub records
        no result, so the lesson stays "not started"."""
        if result.digest is not None and result.digest == self.lock.get(f"{lesson.id}/solution.py"):
            self.progress.update(lesson.id, passed=False, score=None, digest=None)
            return
        self.progress.update(lesson.id, passed=result.passed, score=round(result.score, 6),
                             digest=result.digest or file_digest(self.exercise(lesson.entry)))

    def state(self, entry):
        """passed, failing, changed (since its last check), started, not started or coming soon."""
        if not self.roadmap.available(entry):
            return "coming soon"
        record = self.progress.lesson(entry.id)
        if record.get("score") is not None:
            if record.get("digest") and record["digest"] != file_digest(self.exercise(entry)):
                return "changed"
            return "passed" if record.get("passed") else "failing"
        return "started" if self.started(entry) else "not started"

    def next_lesson(self):
        return next((e for e in self.roadmap.entries
                     if self.roadmap.available(e) and self.state(e) != "passed"), None)
