"""Feedback released lesson by lesson. With `release = "manual"` in the course file, a lesson's
feedback leaves (Gradescope's results, the Canvas and Moodle files) only once `grader release` has
named it; the feedback pages are written for every lesson, for the instructor to read first. A
release is kept in the gradebook with who made it and when, and is never taken back."""
from grader.lessons.roadmap import UnknownLesson
from .notes import now, who
from .table import CourseError


def release(db, roadmap, names):
    """Record the lessons `names` (numbers, slugs or ids) as released; returns (their ids, the ids
    of the lessons still held). Raises CourseError for a lesson never graded into the gradebook."""
    ids = []
    for name in names:
        try:
            lesson_id = roadmap.find(name).id
        except UnknownLesson as exc:
            raise CourseError(str(exc)) from None
        if not db.execute("SELECT 1 FROM lessons WHERE id = ?", (lesson_id,)).fetchone():
            raise CourseError(f"lesson {lesson_id} was never graded into this gradebook")
        ids.append(lesson_id)
    with db:
        db.executemany("INSERT OR IGNORE INTO releases VALUES (?, ?, ?)",
                       [(i, who(), now()) for i in ids])
    return ids, held(db)


def held(db):
    """The ids of the lessons whose feedback still waits for a release, in lesson order."""
    return [i for (i,) in db.execute(
        "SELECT id FROM lessons WHERE held = 1 AND id NOT IN (SELECT lesson FROM releases) "
        "ORDER BY number, id")]


def record(out, roadmap, names):
    """`release` on the gradebook in `out`, with the run lock held, then the exports rewritten
    (what they now carry is published); raises GraderError."""
    from ..exports import changing
    with changing(out) as db:
        return release(db, roadmap, names)
