"""The class gradebook: one SQLite file holding learners, submissions and results.

Every result is committed as soon as it is graded, so a run that stops halfway keeps what it did.
"""
import hashlib
import json
import sqlite3
import time
from importlib import metadata
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS learners (id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    learner TEXT NOT NULL REFERENCES learners(id),
    lesson TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    UNIQUE (learner, lesson, sha256));
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    submission INTEGER NOT NULL REFERENCES submissions(id),
    score REAL NOT NULL,
    passed INTEGER NOT NULL,
    cases_passed INTEGER NOT NULL,
    cases_total INTEGER NOT NULL,
    error TEXT,
    violations TEXT NOT NULL,
    diagnosis TEXT NOT NULL,
    grader_version TEXT NOT NULL,
    lesson_version TEXT NOT NULL,
    graded_at TEXT NOT NULL,
    seconds REAL NOT NULL);
CREATE TABLE IF NOT EXISTS case_results (
    result INTEGER NOT NULL REFERENCES results(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    public INTEGER NOT NULL,
    status TEXT NOT NULL,
    passed INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (result, position));
"""
LESSON_FILES = ("lesson.md", "solution.py", "hidden_cases.py", "mistakes.py")


def file_hash(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def grader_version():
    """The package version and a short hash of the grader's code: a result names its grader."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parents[1].rglob("*.py")):
        digest.update(path.read_bytes())
    return f"{metadata.version('transformer-workbook-grader')}+{digest.hexdigest()[:12]}"


def lesson_version(lesson):
    """A short hash of the lesson's source files: a result names the lesson it was graded against."""
    digest = hashlib.sha256()
    for name in LESSON_FILES:
        digest.update((lesson.folder / name).read_bytes())
    return digest.hexdigest()[:16]


class Gradebook:
    def __init__(self, path):
        try:
            self.db = sqlite3.connect(path)
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{path} is not a gradebook this grader can use ({exc})") from None
        self.grader_version = grader_version()

    def add_learners(self, learners):
        with self.db:
            self.db.executemany("INSERT OR IGNORE INTO learners VALUES (?)", [(l,) for l in learners])

    def record(self, submission, result, seconds):
        """Store one graded submission and its per-case outcomes; returns the result's row id."""
        sub, lesson = submission, submission.lesson
        key = (sub.learner, lesson.id, file_hash(sub.path))
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO submissions (learner, lesson, sha256, path) "
                            "VALUES (?, ?, ?, ?)", (*key, str(sub.path)))
            (sub_id,) = self.db.execute(
                "SELECT id FROM submissions WHERE learner = ? AND lesson = ? AND sha256 = ?",
                key).fetchone()
            cur = self.db.execute(
                "INSERT INTO results (submission, score, passed, cases_passed, cases_total, error, "
                "violations, diagnosis, grader_version, lesson_version, graded_at, seconds) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (sub_id, result.score, result.passed, result.passed_count, len(result.cases),
                 result.error, json.dumps([v.message for v in result.violations]),
                 json.dumps([{"mistake": d.mistake, "message": d.message} for d in result.diagnosis]),
                 self.grader_version, lesson_version(lesson),
                 time.strftime("%Y-%m-%dT%H:%M:%S%z"), round(seconds, 4)))
            self.db.executemany(
                "INSERT INTO case_results VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(cur.lastrowid, i, r.case.name, r.case.public, r.outcome.status, r.verdict.passed,
                  r.verdict.message or "") for i, r in enumerate(result.cases)])
        return cur.lastrowid

    def close(self):
        self.db.close()
