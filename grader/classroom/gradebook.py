"""The class gradebook: one SQLite file holding learners, lessons, submissions and results.

Every result is committed, with its cases and the learner x lesson's `current` pointer, as soon as
it is graded (results that finish while the last write goes on share the next transaction, so a
large class pays for one write to the disk per batch, not per result): a run killed at any moment (SIGKILL, mid-write) leaves the
gradebook as it was after its last complete result, and the next run grades only what is missing.
Results are never deleted: `current` names the one result per learner x lesson that exports use; the
rest is history. The schema carries a version (`PRAGMA user_version`); older gradebooks are migrated
in place, anything else is refused untouched.
"""
import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import time
from importlib import metadata
from pathlib import Path

from grader.errors import GraderError
from grader.judge import points
from grader.sources import code_digest

SCHEMA_VERSION = 12
SQLITE_MAGIC = b"SQLite format 3\x00"
V1_TABLES = {"learners", "submissions", "results", "case_results"}
ROSTER = """
CREATE TABLE roster (                       -- the course's learners, from --roster
    id TEXT PRIMARY KEY,                    -- the learner's folder name
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    section TEXT NOT NULL,
    sis_id TEXT NOT NULL);
"""
EXTENSIONS = """
CREATE TABLE extensions (                   -- from extensions.csv
    learner TEXT NOT NULL,
    lesson TEXT NOT NULL,                   -- a lesson id, or '*': every lesson
    due TEXT,                               -- the new due date (ISO), or
    days REAL,                              -- days added to the lesson's own
    PRIMARY KEY (learner, lesson));
"""
NOTES = """
CREATE TABLE overrides (                    -- `grader override`: the latest per learner x lesson counts
    id INTEGER PRIMARY KEY,
    learner TEXT NOT NULL,
    lesson TEXT NOT NULL,
    score REAL NOT NULL,                    -- in the lesson's points
    comment TEXT NOT NULL,
    sha256 TEXT,                            -- the submission it was made for (NULL: none)
    by TEXT NOT NULL,                       -- the OS user who made it
    at TEXT NOT NULL);
CREATE TABLE comments (                     -- `grader comment`
    id INTEGER PRIMARY KEY,
    learner TEXT NOT NULL,
    lesson TEXT NOT NULL,
    text TEXT NOT NULL,
    by TEXT NOT NULL,
    at TEXT NOT NULL);
"""
MISTAKE_NOTES = """
CREATE TABLE mistake_notes (                -- `grader comment --mistake`: the latest per lesson x
    id INTEGER PRIMARY KEY,                 -- mistake counts, for every learner whose current
    lesson TEXT NOT NULL,                   -- result's diagnosis names it
    mistake TEXT NOT NULL,                  -- as results.diagnosis stores it (symptom:... too)
    text TEXT NOT NULL,
    points REAL,                            -- added to the lesson's points (NULL: none)
    by TEXT NOT NULL,
    at TEXT NOT NULL);
"""
RELEASED = """
CREATE TABLE releases (                     -- `grader release`: a held lesson's feedback may leave
    lesson TEXT PRIMARY KEY,
    by TEXT NOT NULL,
    at TEXT NOT NULL);
"""
PUBLISHED = """
CREATE TABLE published (                    -- the points each learner x lesson left the output
    id INTEGER PRIMARY KEY,                 -- folder with (exports.publish): the latest counts
    learner TEXT NOT NULL,
    lesson TEXT NOT NULL,
    points REAL NOT NULL,
    sha256 TEXT,                            -- the submission they were for
    at TEXT NOT NULL);
CREATE TABLE export_settings (              -- how the last run wrote the exports, for the commands
    name TEXT PRIMARY KEY,                  -- that rewrite them (override, comment, release)
    value TEXT NOT NULL);
"""
SCHEMA = """
CREATE TABLE learners (
    id TEXT PRIMARY KEY,
    withdrawn TEXT);                        -- when a class run first found their folder gone
CREATE TABLE lessons (
    id TEXT PRIMARY KEY,
    number INTEGER NOT NULL,
    title TEXT NOT NULL,
    version TEXT NOT NULL,
    hints TEXT NOT NULL,                   -- JSON list of the hint tiers' titles
    points REAL NOT NULL DEFAULT 1,        -- what the lesson is worth (grader.judge.points)
    rule TEXT,                             -- JSON of its points.Rule (NULL: the default rule)
    due TEXT,                              -- ISO moment it is due (NULL: no due date)
    late TEXT,                             -- JSON of its course.late.Late (NULL: none)
    held INTEGER NOT NULL DEFAULT 0,       -- 1: its feedback waits for `grader release`
    never_lower INTEGER NOT NULL DEFAULT 0);  -- 1: a regrade keeps its published points
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    learner TEXT NOT NULL REFERENCES learners(id),
    lesson TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    handed_in TEXT,                        -- ISO moment, as the class's source says (course.handed_in)
    handed_in_from TEXT,                   -- which source said it
    UNIQUE (learner, lesson, sha256));
CREATE TABLE results (
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
    seconds REAL NOT NULL,
    fault INTEGER NOT NULL DEFAULT 0,       -- the grader itself failed on this job
    hint INTEGER,                           -- the hint tier that addresses what is wrong
    error_line INTEGER,
    feedback_error TEXT,                    -- `error` as the learner may read it
    notes TEXT);                            -- JSON list: for the learner, never changing the score
CREATE TABLE case_results (
    result INTEGER NOT NULL REFERENCES results(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    public INTEGER NOT NULL,
    status TEXT NOT NULL,
    passed INTEGER NOT NULL,
    message TEXT NOT NULL,                  -- the full verdict (instructor's eyes only)
    verdict TEXT,                           -- the verdict in words a learner may read
    probe TEXT,
    shown TEXT,                             -- JSON: input, expected, got, printed (public cases)
    output TEXT,                            -- a hash of the outputs (collusion.fingerprint)
    PRIMARY KEY (result, position));
CREATE TABLE current (
    learner TEXT NOT NULL,
    lesson TEXT NOT NULL,
    result INTEGER NOT NULL REFERENCES results(id),
    PRIMARY KEY (learner, lesson));
CREATE TABLE ungraded (
    learner TEXT,                           -- NULL: a file at the top of the class folder
    lesson TEXT,                            -- NULL: a file that names no lesson
    path TEXT,                              -- NULL: nothing was submitted for the lesson
    reason TEXT NOT NULL);
""" + ROSTER + EXTENSIONS + NOTES + MISTAKE_NOTES + RELEASED + PUBLISHED
MIGRATE_FROM_1 = """
ALTER TABLE results ADD COLUMN fault INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN hint INTEGER;
ALTER TABLE results ADD COLUMN error_line INTEGER;
ALTER TABLE results ADD COLUMN feedback_error TEXT;
ALTER TABLE case_results ADD COLUMN verdict TEXT;
ALTER TABLE case_results ADD COLUMN probe TEXT;
ALTER TABLE case_results ADD COLUMN shown TEXT;
CREATE TABLE lessons (id TEXT PRIMARY KEY, number INTEGER NOT NULL, title TEXT NOT NULL,
                      version TEXT NOT NULL, hints TEXT NOT NULL);
CREATE TABLE current (learner TEXT NOT NULL, lesson TEXT NOT NULL,
                      result INTEGER NOT NULL REFERENCES results(id), PRIMARY KEY (learner, lesson));
CREATE TABLE ungraded (learner TEXT, lesson TEXT, path TEXT, reason TEXT NOT NULL);
INSERT INTO lessons SELECT DISTINCT lesson, CAST(substr(lesson, 1, instr(lesson, '-') - 1)
    AS INTEGER), lesson, '', '[]' FROM submissions;
INSERT INTO current SELECT s.learner, s.lesson, MAX(r.id) FROM results r
    JOIN submissions s ON s.id = r.submission GROUP BY s.learner, s.lesson;
"""
MIGRATE_FROM_2 = """
ALTER TABLE results ADD COLUMN notes TEXT;
"""
MIGRATE_FROM_3 = """
ALTER TABLE learners ADD COLUMN withdrawn TEXT;
"""
MIGRATE_FROM_4 = ROSTER
MIGRATE_FROM_5 = """
ALTER TABLE lessons ADD COLUMN points REAL NOT NULL DEFAULT 1;
ALTER TABLE lessons ADD COLUMN rule TEXT;
"""
MIGRATE_FROM_6 = """
ALTER TABLE lessons ADD COLUMN due TEXT;
ALTER TABLE lessons ADD COLUMN late TEXT;
ALTER TABLE submissions ADD COLUMN handed_in TEXT;
ALTER TABLE submissions ADD COLUMN handed_in_from TEXT;
""" + EXTENSIONS
MIGRATE_FROM_9 = """
ALTER TABLE case_results ADD COLUMN output TEXT;
"""
RELEASES = """
ALTER TABLE lessons ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
""" + RELEASED
MIGRATE_FROM_11 = """
ALTER TABLE lessons ADD COLUMN never_lower INTEGER NOT NULL DEFAULT 0;
""" + PUBLISHED
MIGRATIONS = {1: MIGRATE_FROM_1, 2: MIGRATE_FROM_2, 3: MIGRATE_FROM_3, 4: MIGRATE_FROM_4,
              5: MIGRATE_FROM_5, 6: MIGRATE_FROM_6, 7: NOTES,
              8: MISTAKE_NOTES, 9: MIGRATE_FROM_9, 10: RELEASES,
              11: MIGRATE_FROM_11}    # from version N to N + 1
LESSON_FILES = ("lesson.md", "solution.py", "hidden_cases.py", "mistakes.py")


def grader_version():
    """The package version and a short hash of the grader's code: a result names its grader."""
    try:
        version = metadata.version("transformer-workbook-grader")
    except metadata.PackageNotFoundError:     # run from a copy of the source, not installed
        version = "0"
    return f"{version}+{code_digest(Path(__file__).parents[1])[:12]}"


def lesson_version(lesson):
    """A short hash of the lesson's source files: a result names the lesson it was graded against."""
    digest = hashlib.sha256()
    for name in LESSON_FILES:
        digest.update((lesson.folder / name).read_bytes())
    return digest.hexdigest()[:16]


def schema_version(db, path):
    """The gradebook's schema version (0: empty); raises GraderError for a database that is not a
    gradebook."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version == 0 and not tables:
        return 0
    if version == 0 and V1_TABLES <= tables and "current" not in tables:
        return 1
    if 1 <= version <= SCHEMA_VERSION:
        return version
    if version > SCHEMA_VERSION:
        raise GraderError(f"{path} was written by a newer grader (gradebook schema {version}; this "
                          f"grader knows schema {SCHEMA_VERSION}); it was left untouched: upgrade "
                          "the grader, or grade into another --out folder")
    raise GraderError(f"{path} is an SQLite database but not a gradebook (tables: "
                      f"{', '.join(sorted(tables)) or 'none'}); it was left untouched: grade into "
                      "another --out folder")


def connect(path):
    """An open connection to the gradebook at `path`, created or migrated to SCHEMA_VERSION."""
    path = Path(path)
    if path.exists():
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
        if head and head != SQLITE_MAGIC:
            raise GraderError(f"{path} is not an SQLite gradebook; it was left untouched: move it "
                              "away, or grade into another --out folder")
    try:
        db = sqlite3.connect(path, timeout=30)
        db.execute("PRAGMA foreign_keys = ON")
        version = schema_version(db, path)
        if version != SCHEMA_VERSION:
            steps = [SCHEMA] if version == 0 else [MIGRATIONS[v] for v in
                                                   range(version, SCHEMA_VERSION)]
            with db:
                db.executescript("BEGIN;" + "".join(steps)
                                 + f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
    except sqlite3.DatabaseError as exc:
        raise GraderError(f"{path} is not a gradebook this grader can use ({exc}); it was left "
                          "untouched") from None
    return db


class RunLock:
    """One grading run per output folder at a time: a second is refused with a clear message. The
    lock is the kernel's, so a run killed by SIGKILL releases it."""

    def __init__(self, folder):
        self.path = Path(folder) / ".grading.lock"
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self.fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(self.fd)
            raise GraderError(f"another `grader grade` (process {holder}) is grading into "
                              f"{Path(folder)}; wait for it to finish, or grade into another "
                              "--out folder") from None
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, str(os.getpid()).encode(), 0)

    def release(self):
        os.close(self.fd)


@contextlib.contextmanager
def locked(out):
    """The gradebook in `out`, open for a command that changes it while no grading run writes it
    (the run lock held); raises GraderError when `out` holds no gradebook of this schema."""
    from .readonly import open_readonly
    open_readonly(out).close()
    lock = RunLock(out)
    try:
        db = connect(Path(out) / "gradebook.sqlite")
        try:
            yield db
        finally:
            db.close()
    finally:
        lock.release()


class Gradebook:
    def __init__(self, path):
        self.path = Path(path)
        self.db = connect(self.path)
        self.grader_version = grader_version()

    def add_learners(self, learners, whole_class=True):
        """Record `learners` as present; with `whole_class`, every other learner of the gradebook
        is marked withdrawn (from now, or since they were first found gone), their results kept."""
        with self.db:
            self.db.executemany("INSERT OR IGNORE INTO learners (id) VALUES (?)",
                                [(l,) for l in learners])
            self.db.executemany("UPDATE learners SET withdrawn = NULL WHERE id = ?",
                                [(l,) for l in learners])
            if whole_class:
                here = set(learners)
                gone = [(l,) for (l,) in self.db.execute(
                    "SELECT id FROM learners WHERE withdrawn IS NULL") if l not in here]
                self.db.executemany("UPDATE learners SET withdrawn = ? WHERE id = ?",
                                    [(time.strftime("%Y-%m-%dT%H:%M:%S%z"), l) for (l,) in gone])

    def set_roster(self, members):
        """Replace the roster with `members` (course.roster.Member), in one transaction."""
        with self.db:
            self.db.execute("DELETE FROM roster")
            self.db.executemany("INSERT INTO roster VALUES (?, ?, ?, ?, ?)",
                                [m.row() for m in members])

    def roster_ids(self):
        return [i for (i,) in self.db.execute("SELECT id FROM roster ORDER BY rowid")]

    def add_lessons(self, lessons, course=None):
        """Record each lesson as graded now: number, title, version, hint titles and what it is
        worth under `course` (a course.config.Course; None: the default points)."""
        rule = course.rule if course else (lambda lesson_id: points.DEFAULT)
        due = course.due.get if course else (lambda lesson_id: None)
        late = course.late_policy if course else (lambda lesson_id: None)
        held = int(bool(course and course.manual_release))
        never_lower = int(bool(course and course.never_lower))
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO lessons (id, number, title, version, hints, points, rule, "
                "due, late, held, never_lower) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(l.id, l.entry.number, l.entry.title, lesson_version(l),
                  json.dumps([title for title, _ in l.prose.hints]), rule(l.id).points,
                  rule(l.id).to_json(), due(l.id) and due(l.id).isoformat(),
                  late(l.id) and late(l.id).to_json(), held, never_lower) for l in lessons])

    def set_extensions(self, extensions):
        """Replace the extensions with `extensions` (course.extensions.Extension)."""
        with self.db:
            self.db.execute("DELETE FROM extensions")
            self.db.executemany("INSERT INTO extensions VALUES (?, ?, ?, ?)",
                                [e.row() for e in extensions])

    def note_handed_in(self, times):
        """(learner, lesson, sha256, when, source) of each submission found this run."""
        with self.db:
            self.db.executemany(
                "UPDATE submissions SET handed_in = ?, handed_in_from = ? WHERE learner = ? AND "
                "lesson = ? AND sha256 = ?", [(when and when.isoformat(), source, learner,
                                               lesson, sha) for learner, lesson, sha, when, source
                                              in times])

    def up_to_date(self, learner, lesson, sha256):
        """Whether the current result of learner x lesson graded this very file, against this
        lesson version, with this grader, without a fault of the grader's own."""
        row = self.db.execute(
            "SELECT 1 FROM current c JOIN results r ON r.id = c.result JOIN submissions s "
            "ON s.id = r.submission JOIN lessons l ON l.id = c.lesson WHERE c.learner = ? AND "
            "c.lesson = ? AND s.sha256 = ? AND r.lesson_version = l.version AND "
            "r.grader_version = ? AND r.fault = 0", (learner, lesson, sha256, self.grader_version))
        return row.fetchone() is not None

    def record(self, job, sha256, seconds):
        """Store one graded job (a classroom.jobs.Graded) and make it current, in one transaction."""
        return self.record_many([(job, sha256, seconds)])[0]

    def record_many(self, graded):
        """Store (job, sha256, seconds) triples and make each current, all in one transaction (one
        write to the disk, however many); returns their result ids."""
        with self.db:
            return [self.insert(*one) for one in graded]

    def insert(self, job, sha256, seconds):
        """One graded job's rows, inside the caller's transaction; its result id."""
        r = job.row
        self.db.execute("INSERT OR IGNORE INTO submissions (learner, lesson, sha256, path) "
                        "VALUES (?, ?, ?, ?)", (job.learner, job.lesson, sha256, job.path))
        (sub_id,) = self.db.execute(
            "SELECT id FROM submissions WHERE learner = ? AND lesson = ? AND sha256 = ?",
            (job.learner, job.lesson, sha256)).fetchone()
        (version,) = self.db.execute("SELECT version FROM lessons WHERE id = ?",
                                     (job.lesson,)).fetchone()
        cur = self.db.execute(
            "INSERT INTO results (submission, score, passed, cases_passed, cases_total, error, "
            "violations, diagnosis, grader_version, lesson_version, graded_at, seconds, fault, "
            "hint, error_line, feedback_error, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?, ?, ?)",
            (sub_id, r["score"], r["passed"], r["cases_passed"], len(r["cases"]), r["error"],
             json.dumps(r["violations"]), json.dumps(r["diagnosis"]), self.grader_version,
             version, time.strftime("%Y-%m-%dT%H:%M:%S%z"), round(seconds, 4), r["fault"],
             r["hint"], r["error_line"], r["feedback_error"], json.dumps(r.get("notes") or [])))
        self.db.executemany(
            "INSERT INTO case_results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(cur.lastrowid, i, c["name"], c["public"], c["status"], c["passed"], c["message"],
              c["verdict"], c["probe"], json.dumps(c["shown"]) if c["shown"] else None,
              c.get("output"))
             for i, c in enumerate(r["cases"])])
        self.db.execute("INSERT OR REPLACE INTO current VALUES (?, ?, ?)",
                        (job.learner, job.lesson, cur.lastrowid))
        return cur.lastrowid

    def note_ungraded(self, lessons, notes):
        """Replace what earlier runs noted about `lessons` (and about files naming no lesson) with
        `notes`: (learner, lesson, path, reason) tuples."""
        with self.db:
            self.db.execute(f"DELETE FROM ungraded WHERE lesson IS NULL OR lesson IN "
                            f"({', '.join('?' * len(lessons))})", list(lessons))
            self.db.executemany("INSERT INTO ungraded VALUES (?, ?, ?, ?)", notes)

    def close(self):
        self.db.close()
