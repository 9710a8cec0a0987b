"""What the gradebook exports after every run, and after each command that changes it between runs
(override, comment, release): grades.csv, feedback pages, Gradescope results and the Canvas and
Moodle files, each written whole from the gradebook (a file is replaced only once its new version
is complete), the points that leave recorded as published (course.published) first.

A learner's files are named after the learner's id where that is a safe file name; otherwise (a
character a file system or a shell would trip on, a name too long, one that differs from another
only in case, a device name Windows reserves) after a safe version of it, cut short, with a short
hash of the id that keeps every learner's file their own.
"""
import contextlib
import hashlib
import json
import os
import queue
import re
import threading
import unicodedata
from pathlib import Path

from grader.errors import GraderError
from . import feedback, gradescope, view as class_view
from .course import lms, published
from .escape import csv_text, plain
from .gradebook import locked

MAX_NAME = 80           # bytes of a learner's file name before its hash and suffix
RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
            *(f"lpt{i}" for i in range(10))}


class AtomicFiles:
    """Files each replaced whole: every new version goes to a temporary file beside its path;
    `commit` flushes them all to the disk at once (one sync, not one per file), then moves each
    into place. Until then no file has changed. The files are written by a thread of their own
    while the caller makes the next (creating a small file costs about as much as rendering a
    feedback page); a write that failed raises its OSError at the next write or at `commit`."""

    def __init__(self):
        self.pending = []
        self.queue = queue.SimpleQueue()
        self.writer = None
        self.failure = None

    def write(self, path, text):
        if self.failure:
            raise self.failure
        path = Path(path)
        tmp = path.with_name(f".{path.name}.tmp")
        self.pending.append((tmp, path))
        if self.writer is None:
            self.writer = threading.Thread(target=self.write_queued, name="export-writer",
                                           daemon=True)
            self.writer.start()
        self.queue.put((tmp, text))

    def write_queued(self):
        while (item := self.queue.get()) is not None:
            if self.failure is None:
                try:
                    with open(item[0], "w", encoding="utf-8", newline="") as f:
                        f.write(item[1])
                except OSError as exc:
                    self.failure = exc

    def written(self):
        """Wait until every queued file is written (or failed)."""
        if self.writer is not None:
            self.queue.put(None)
            self.writer.join()
            self.writer = None

    def commit(self):
        self.written()
        if self.failure:
            raise self.failure
        os.sync()
        for tmp, path in self.pending:
            tmp.replace(path)
        self.pending = []

    def discard(self):
        self.written()
        for tmp, _ in self.pending:
            tmp.unlink(missing_ok=True)
        self.pending = []


def instructor_notes(view, learner):
    """The learner's overrides and comments, lesson by lesson, in one cell."""
    parts = []
    for l in view.lessons:
        override = view.overrides.get((learner, l.id))
        if override is not None:
            stale = " (set for an earlier submission)" if view.override_stale(learner, l.id) else ""
            parts.append(f"{l.id}: overridden to {override.score:g} by {override.by}{stale}"
                         + (f": {override.comment}" if override.comment else ""))
        parts += [f"{l.id}: comment by {c.by}: {c.text}" for c in view.comments.get((learner, l.id), [])]
        parts += [f"{l.id}: note by {n.by} on {n.mistake}: {n.text}"
                  + feedback.mistake_points(n, override)
                  for n in view.notes_on_mistakes(learner, l.id)]
    return "; ".join(parts)


def grades_csv(view):
    """A row per learner: each lesson's score in its points (grader.judge.points; empty where
    nothing was graded, or the grader failed; the instructor's override where there is one), then
    the total; `status` (withdrawn, for a learner whose folder is gone; not on the roster) when the
    class has such a learner, and `instructor notes` (overrides and comments) when there are any."""
    status = any(view.status(l) for l in view.learners)
    notes = bool(view.overrides or view.comments or view.mistake_notes)
    rows = [["learner", *(l.id for l in view.lessons), "total", *(["status"] if status else []),
             *(["instructor notes"] if notes else [])]]
    for learner in view.learners:
        scores = [view.earned(learner, l.id) for l in view.lessons]
        total = sum(s for s in scores if s is not None)
        rows.append([learner, *("" if s is None else f"{s:.4g}" for s in scores), f"{total:.4g}",
                     *([view.status(learner)] if status else []),
                     *([instructor_notes(view, learner)] if notes else [])])
    return csv_text(rows)


def safe_stem(learner):
    """(`learner` made a safe file name, without suffix; whether that is `learner` itself)."""
    name = unicodedata.normalize("NFC", plain(learner, newlines=False))
    cleaned = re.sub(r"[^\w.\- ]", "_", name).strip(" .-") or "learner"
    cut = cleaned.encode()[:MAX_NAME].decode(errors="ignore").rstrip(" .")
    return cut, cut == learner and cut.split(".")[0].lower() not in RESERVED


def file_stems(learners):
    """Each learner's file name (without suffix): their id where it is safe and no other learner's
    differs from it only in case; else a safe form of it and a short hash of the id."""
    stems = {l: safe_stem(l) for l in learners}
    folded = {}
    for stem, _ in stems.values():
        folded[stem.casefold()] = folded.get(stem.casefold(), 0) + 1
    return {l: stem if same and folded[stem.casefold()] == 1
            else f"{stem}-{hashlib.sha256(l.encode()).hexdigest()[:10]}"
            for l, (stem, same) in stems.items()}


def write_all(db, out, hidden_visibility="after_published", drop=False):
    """Rewrite out/grades.csv, out/feedback/<learner>.{html,md},
    out/gradescope/<learner>/results.json and out/lms/{canvas,moodle}.csv (these two of the
    released lessons only) from the gradebook `db`; `drop`: leave out the learners who withdrew
    (whose folder is gone), rather than mark them (the LMS files always leave them out). Once every
    file is written, and before any is moved into place, the points that leave are recorded as
    published, with how the exports were written. Returns the whole class's view."""
    out = Path(out)
    whole = class_view.load(db)
    view = whole.present() if drop else whole
    stems, leaving = file_stems(view.learners), view.released()
    files = AtomicFiles()
    try:
        files.write(out / "grades.csv", grades_csv(view))
        (out / "feedback").mkdir(exist_ok=True)
        for learner in view.learners:
            stem = stems[learner]
            files.write(out / "feedback" / f"{stem}.md", feedback.markdown(view, learner))
            files.write(out / "feedback" / f"{stem}.html", feedback.html_page(view, learner))
            (out / "gradescope" / stem).mkdir(parents=True, exist_ok=True)
            data = gradescope.results(leaving, learner, hidden_visibility)
            files.write(out / "gradescope" / stem / "results.json", json.dumps(data))   # C encoder: no indent
        (out / "lms").mkdir(exist_ok=True)
        for system in lms.SYSTEMS:
            files.write(out / "lms" / f"{system}.csv", lms.export(system, whole.present()))
        with db:
            published.record(db, leaving)
            db.executemany("INSERT OR REPLACE INTO export_settings VALUES (?, ?)",
                           [("hidden_cases", hidden_visibility), ("drop", str(int(drop)))])
        files.commit()
    finally:
        files.discard()
    return whole


def rewrite(db, out):
    """write_all as the last run that wrote the exports of `out` did (its hidden cases'
    visibility, whether it dropped the learners who withdrew)."""
    settings = dict(db.execute("SELECT name, value FROM export_settings"))
    try:
        return write_all(db, out, settings.get("hidden_cases", "after_published"),
                         settings.get("drop") == "1")
    except OSError as exc:
        raise GraderError(f"the change is recorded in the gradebook, but the exports in {out} "
                          f"could not be rewritten ({exc.strerror or exc}): once that is fixed, "
                          "`grader grade` rewrites them (nothing is graded again)") from None


@contextlib.contextmanager
def changing(out):
    """The gradebook in `out` for a command that changes it between runs (gradebook.locked: the
    run lock held); once the change is made, the exports are rewritten from it."""
    with locked(out) as db:
        yield db
        rewrite(db, out)
