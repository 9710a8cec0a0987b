"""The instructor's overrides and comments on a learner x lesson, kept in the gradebook with who
made them (the OS user) and when. The latest override of a learner x lesson sets its points,
whatever later runs grade; it remembers the submission it was made for, so feedback can say when
that submission has changed since. Nothing here is ever deleted."""
import getpass
import time
from dataclasses import dataclass

from grader.lessons.roadmap import UnknownLesson
from .table import CourseError


@dataclass(frozen=True)
class Override:
    score: float
    comment: str
    sha256: str         # the submission it was made for (None: nothing was submitted)
    by: str
    at: str


@dataclass(frozen=True)
class Comment:
    text: str
    by: str
    at: str


def who():
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown user"


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def target(db, roadmap, learner, lesson):
    """(learner, lesson id) once both are known to the gradebook; raises CourseError."""
    try:
        lesson_id = roadmap.find(lesson).id
    except UnknownLesson as exc:
        raise CourseError(str(exc)) from None
    if not db.execute("SELECT 1 FROM learners WHERE id = ?", (learner,)).fetchone():
        raise CourseError(f"the gradebook has no learner {learner!r} (the name of their folder "
                          "in the class, or their id on the roster)")
    if not db.execute("SELECT 1 FROM lessons WHERE id = ?", (lesson_id,)).fetchone():
        raise CourseError(f"lesson {lesson_id} was never graded into this gradebook")
    return learner, lesson_id


def add_override(db, learner, lesson_id, score, comment):
    """Record an override of learner x lesson to `score` points (from 0 to the lesson's)."""
    (worth,) = db.execute("SELECT points FROM lessons WHERE id = ?", (lesson_id,)).fetchone()
    if not 0 <= score <= worth:
        raise CourseError(f"--score {score:g}: lesson {lesson_id} is worth {worth:g} points, so "
                          f"a score is from 0 to {worth:g}")
    sha = db.execute("SELECT s.sha256 FROM current c JOIN results r ON r.id = c.result JOIN "
                     "submissions s ON s.id = r.submission WHERE c.learner = ? AND c.lesson = ?",
                     (learner, lesson_id)).fetchone()
    latest = db.execute("SELECT score, comment, sha256 FROM overrides WHERE learner = ? AND "
                        "lesson = ? ORDER BY id DESC LIMIT 1", (learner, lesson_id)).fetchone()
    if latest == (score, comment, sha and sha[0]):
        return False                    # the very override that counts already
    with db:
        db.execute("INSERT INTO overrides (learner, lesson, score, comment, sha256, by, at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", (learner, lesson_id, score, comment,
                                                     sha and sha[0], who(), now()))
    return True


def add_comment(db, learner, lesson_id, text):
    if not text.strip():
        raise CourseError("the comment is empty")
    if db.execute("SELECT 1 FROM comments WHERE learner = ? AND lesson = ? AND text = ?",
                  (learner, lesson_id, text)).fetchone():
        return False                    # made already: not shown twice
    with db:
        db.execute("INSERT INTO comments (learner, lesson, text, by, at) VALUES (?, ?, ?, ?, ?)",
                   (learner, lesson_id, text, who(), now()))
    return True


def load(db):
    """({(learner, lesson): the latest Override}, {(learner, lesson): [Comment, oldest first]})."""
    overrides = {(l, s): Override(score, comment, sha, by, at) for l, s, score, comment, sha, by, at
                 in db.execute("SELECT learner, lesson, score, comment, sha256, by, at FROM "
                               "overrides ORDER BY id")}
    comments = {}
    for learner, lesson, text, by, at in db.execute(
            "SELECT learner, lesson, text, by, at FROM comments ORDER BY id"):
        comments.setdefault((learner, lesson), []).append(Comment(text, by, at))
    return overrides, comments


def record(out, roadmap, learner, lesson, add, *args):
    """Run `add(db, learner, lesson id, *args)` on the gradebook in `out`, with the run lock held
    (no grading run writes meanwhile), then rewrite the exports; returns (the lesson id, whether
    anything new was recorded). Raises GraderError (CourseError) for a missing gradebook, an
    unknown learner or lesson, a score out of range."""
    from ..exports import changing
    with changing(out) as db:
        learner, lesson_id = target(db, roadmap, learner, lesson)
        return lesson_id, add(db, learner, lesson_id, *args)
