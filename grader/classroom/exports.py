"""What the gradebook exports after every run: grades.csv, feedback pages and Gradescope results,
each written whole from the gradebook (a file is replaced only once its new version is complete)."""
import csv
import io
import json
import os
from pathlib import Path

from . import feedback, gradescope, view as class_view


class AtomicFiles:
    """Files each replaced whole: every new version goes to a temporary file beside its path;
    `commit` flushes them all to the disk at once (one sync, not one per file), then moves each
    into place. Until then no file has changed."""

    def __init__(self):
        self.pending = []

    def write(self, path, text):
        path = Path(path)
        tmp = path.with_name(f".{path.name}.tmp")
        self.pending.append((tmp, path))
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)

    def commit(self):
        os.sync()
        for tmp, path in self.pending:
            tmp.replace(path)
        self.pending = []

    def discard(self):
        for tmp, _ in self.pending:
            tmp.unlink(missing_ok=True)
        self.pending = []


def grades_csv(view):
    """A row per learner: each lesson's score in its points (grader.judge.points; empty where
    nothing was graded, or the grader failed), then the total of the scores."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["learner", *(l.id for l in view.lessons), "total"])
    for learner in view.learners:
        scores = []
        for l in view.lessons:
            cur = view.current.get((learner, l.id))
            scores.append(None if cur is None or cur.fault else cur.score)
        total = sum(s for s in scores if s is not None)
        w.writerow([learner, *("" if s is None else f"{s:.4g}" for s in scores), f"{total:.4g}"])
    return out.getvalue()


def write_all(db, out, hidden_visibility="after_published"):
    """Rewrite out/grades.csv, out/feedback/<learner>.{html,md} and
    out/gradescope/<learner>/results.json from the gradebook `db`."""
    out = Path(out)
    view = class_view.load(db)
    files = AtomicFiles()
    try:
        files.write(out / "grades.csv", grades_csv(view))
        (out / "feedback").mkdir(exist_ok=True)
        for learner in view.learners:
            files.write(out / "feedback" / f"{learner}.md", feedback.markdown(view, learner))
            files.write(out / "feedback" / f"{learner}.html", feedback.html_page(view, learner))
            (out / "gradescope" / learner).mkdir(parents=True, exist_ok=True)
            data = gradescope.results(view, learner, hidden_visibility)
            files.write(out / "gradescope" / learner / "results.json", json.dumps(data, indent=1))
        files.commit()
    finally:
        files.discard()
    return view
