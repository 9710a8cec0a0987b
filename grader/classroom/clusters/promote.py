"""`grader cluster LESSON --promote K --name NAME [--message TEXT]`: write cluster K's answer into
the lesson's mistakes.py as a new mistake, for the lesson's author to review.

The answer is the first of the cluster's files that is still exactly what was graded (its SHA-256
as the gradebook holds it). The file is replaced whole (written beside it, then renamed), under a
lock on the lesson's folder, so an interruption leaves the old file or the new one, and two
promotions never lose each other's entry. A note on the cluster (`grader comment --mistake
LESSON:cluster:ID`) is copied to the new mistake, through the gradebook's run lock, so that its
learners keep it once a regrade diagnoses them with the mistake. Nothing graded is changed, and the
answer's code is never run here."""
import contextlib
import fcntl
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from grader.answers import read_answer
from grader.display import plural
from grader.errors import GraderError
from grader.files import write_atomic
from grader.judge.grade import read_bytes
from ..course import mistake_notes
from . import entry, listing


@dataclass
class Promoted:
    lesson: object                  # grader.lessons.lesson.Lesson
    path: object                    # the mistakes.py written
    cluster: object                 # groups.Cluster
    learner: str                    # whose file the entry was written from
    entry: entry.Entry
    note: bool                      # whether the cluster's note was copied to the new mistake


def answer(v, lesson_id, cluster):
    """(learner, source) of the first of the cluster's files that is still the one graded."""
    for learner in cluster.learners:
        cur = v.current[learner, lesson_id]
        try:
            data = read_bytes(cur.path)
        except (OSError, ValueError):
            continue
        if hashlib.sha256(data).hexdigest() == cur.sha256:
            try:
                return learner, read_answer(Path(cur.path), data)
            except ValueError:
                continue
    raise GraderError(f"none of {cluster.name}'s files is still the one that was graded (each was "
                      "changed, moved or removed since): grade the class again, then promote")


@contextlib.contextmanager
def folder_lock(folder):
    """The lesson's folder, locked against another promotion while its mistakes.py is rewritten."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def copy_note(out, lesson_id, cluster, name):
    """Copy the cluster's latest note, as its author wrote it, to mistake `name` (unless that one
    has a note already); whether it was copied."""
    from ..gradebook import locked
    with locked(out) as db:
        notes = mistake_notes.load(db).get(lesson_id, {})
        note = notes.get(cluster.name)
        if note is None or name in notes:
            return False
        with db:
            db.execute("INSERT INTO mistake_notes (lesson, mistake, text, points, by, at) VALUES "
                       "(?, ?, ?, ?, ?, ?)", (lesson_id, name, note.text, note.points, note.by,
                                              note.at))
    return True


def promote(out, workbook, lesson_name, key, name, message):
    """Write cluster `key` of the lesson into its mistakes.py as mistake `name`; a Promoted.
    Raises GraderError (the file and the gradebook left as they were) for bad input."""
    lesson, v, found, _ = listing.load(out, workbook, lesson_name)
    cluster = listing.pick(lesson, found, key)
    learner, source = answer(v, lesson.id, cluster)
    path = lesson.folder / "mistakes.py"
    origin = (f"From {cluster.name} ({plural(len(cluster.learners), 'answer')} of a class), by "
              "`grader cluster --promote`: review it.")
    with folder_lock(lesson.folder):
        made = entry.compose(path.read_text(encoding="utf-8"), lesson.reference_source, source,
                             name, message, origin, lesson.spec.functions)
        noted = copy_note(out, lesson.id, cluster, name)
        write_atomic(path, made.text, mode=path.stat().st_mode)
    return Promoted(lesson, path, cluster, learner, made, noted)
