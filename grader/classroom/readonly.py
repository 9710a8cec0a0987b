"""Read a finished class's gradebook without changing it (for `grader feedback`)."""
import sqlite3
from pathlib import Path

from grader.errors import GraderError
from . import feedback, view
from .gradebook import SCHEMA_VERSION, SQLITE_MAGIC


def open_readonly(out):
    path = Path(out) / "gradebook.sqlite"
    if not path.is_file():
        raise GraderError(f"there is no gradebook in {out}: run `grader grade SUBMISSIONS --out "
                          f"{out}` first")
    with open(path, "rb") as f:
        if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            raise GraderError(f"{path} is not an SQLite gradebook")
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        db.close()
        raise GraderError(f"{path} is a gradebook of another schema version: run `grader grade` "
                          "on it once to bring it up to date")
    return db


def learner_feedback(out, learner):
    db = open_readonly(out)
    try:
        v = view.load(db)
    finally:
        db.close()
    if learner not in v.learners:
        raise GraderError(f"there is no learner '{learner}' in {out}'s gradebook; learners: "
                          f"{', '.join(v.learners) or 'none'}")
    return feedback.markdown(v, learner)
