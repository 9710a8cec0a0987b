"""Published points: what each learner x lesson left the output folder with.

A learner x lesson's points are published when the exports that leave are written with them:
Gradescope's results.json and the Canvas and Moodle files of the output folder, which carry the
released lessons only (every lesson, unless the course file says `release = "manual"`; then once
`grader release` has named it). The gradebook keeps them (table `published`) with the submission
they were for and when, never deleted; the latest counts. With `never_lower = true` in the course
file, a regrade of that same submission that scores less (the lesson's cases, mistakes or points
changed) keeps the published points; a raise goes through, and is published in its turn. A new
submission is scored on its own, and the instructor's override always counts.
"""
from dataclasses import dataclass

from .notes import now

SAME = 1e-9


@dataclass(frozen=True)
class Published:
    points: float
    sha256: str         # the submission they were for (None: nothing was submitted)
    at: str


def load(db):
    """{(learner, lesson): the latest Published}."""
    return {(l, s): Published(p, sha, at) for l, s, p, sha, at in db.execute(
        "SELECT learner, lesson, points, sha256, at FROM published ORDER BY id")}


def kept(published, cur, scored):
    """The published points that stand in for `scored`, the points current result `cur` earns,
    when they are higher and were published for the same submission; else None."""
    if published is None or cur is None or cur.fault or scored is None \
            or cur.sha256 != published.sha256:
        return None
    return published.points if scored < published.points - SAME else None


def record(db, view):
    """Record, in the caller's transaction, the points each learner x lesson of `view` (what
    leaves) counts for, where they differ from the latest published; returns how many."""
    rows, at = [], now()
    for learner in view.learners:
        for lesson in view.lessons:
            points = view.earned(learner, lesson.id)
            if points is None:
                continue
            cur = view.current.get((learner, lesson.id))
            sha = cur.sha256 if cur else None
            latest = view.published.get((learner, lesson.id))
            if latest is None or abs(latest.points - points) > SAME or latest.sha256 != sha:
                rows.append((learner, lesson.id, points, sha, at))
    db.executemany("INSERT INTO published (learner, lesson, points, sha256, at) VALUES "
                   "(?, ?, ?, ?, ?)", rows)
    return len(rows)
