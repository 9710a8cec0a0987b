"""The instructor's note on a known mistake (or a symptom) of a lesson, made once for every learner
whose current result is diagnosed with it, optionally with points added or taken; or on a cluster
of unexplained wrong answers (`cluster:ID`, classroom.clusters), for every learner whose current
result falls in it. The latest note per lesson x mistake counts; nothing is ever deleted. A learner
whose next result no longer carries the mistake (or falls in the cluster) no longer gets its
note."""
import json
import math
from dataclasses import dataclass

from grader.lessons.roadmap import UnknownLesson
from ..clusters.signature import PREFIX as CLUSTER
from .notes import now, who
from .table import CourseError

SYMPTOM = "symptom:"


@dataclass(frozen=True)
class MistakeNote:
    mistake: str        # as results.diagnosis stores it ("no-max-shift", "symptom:..."), or
                        # "cluster:ID"
    text: str
    points: float       # added to the lesson's points (None: none)
    by: str
    at: str


def split(spec):
    """("01", "no-max-shift") of "01:no-max-shift" (a lesson, a colon, the mistake's id)."""
    lesson, sep, mistake = spec.partition(":")
    if not sep or not lesson.strip() or not mistake.strip():
        raise CourseError(f"--mistake {spec!r}: name the lesson and the mistake as LESSON:ID, "
                          "e.g. 01:no-max-shift, 01:symptom:NAME or 01:cluster:ID")
    return lesson.strip(), mistake.strip()


def known_ids(db, lesson):
    """The mistake ids a note may name for `lesson` (a grader.lessons.lesson.Lesson) besides its
    clusters: its known mistakes, then the symptoms its results in the gradebook were diagnosed
    with."""
    seen = set()
    for (diagnosis,) in db.execute("SELECT r.diagnosis FROM results r JOIN submissions s ON "
                                   "s.id = r.submission WHERE s.lesson = ?", (lesson.id,)):
        seen |= {d["mistake"] for d in json.loads(diagnosis)}
    return [m.id for m, _ in lesson.mistakes] + sorted(i for i in seen if i.startswith(SYMPTOM))


def cluster_ids(v, lesson):
    """The ids (cluster:ID) of the lesson's clusters in the class view `v`, as `grader cluster`
    lists them."""
    from ..clusters import groups
    found, _ = groups.of_lesson(v.present(), lesson.id)
    return [c.name for c in found]


def check(db, lesson, mistake, text, points, v=None):
    """Raise CourseError unless the note can be recorded as it is (`v`: the gradebook's class
    view, if loaded already; only a note on a cluster needs it)."""
    if not db.execute("SELECT 1 FROM lessons WHERE id = ?", (lesson.id,)).fetchone():
        raise CourseError(f"lesson {lesson.id} was never graded into this gradebook")
    if mistake.startswith(CLUSTER):
        from .. import view
        clusters = cluster_ids(v or view.load(db), lesson)
        if mistake not in clusters:
            raise CourseError(f"lesson {lesson.id} has no cluster {mistake!r}; its clusters: "
                              f"{', '.join(clusters) or 'none'} (`grader cluster "
                              f"{lesson.entry.number:02d}` lists them)")
    elif mistake not in (known := known_ids(db, lesson)):
        raise CourseError(f"lesson {lesson.id} has no known mistake or symptom {mistake!r}; its "
                          f"ids: {', '.join(known) or 'none'} (a symptom is known once a result "
                          "of the lesson was diagnosed with it)")
    if not text.strip():
        raise CourseError("the comment is empty")
    (worth,) = db.execute("SELECT points FROM lessons WHERE id = ?", (lesson.id,)).fetchone()
    if points is not None and not (math.isfinite(points) and abs(points) <= worth):
        raise CourseError(f"--points {points:g}: lesson {lesson.id} is worth {worth:g} points, so "
                          f"an adjustment is from -{worth:g} to {worth:g}")


def add(db, lesson, mistake, text, points, v=None):
    """Record the note; False when it is the very note that counts already (`v` as for check)."""
    check(db, lesson, mistake, text, points, v)
    latest = db.execute("SELECT text, points FROM mistake_notes WHERE lesson = ? AND mistake = ? "
                        "ORDER BY id DESC LIMIT 1", (lesson.id, mistake)).fetchone()
    if latest == (text, points):
        return False
    with db:
        db.execute("INSERT INTO mistake_notes (lesson, mistake, text, points, by, at) VALUES "
                   "(?, ?, ?, ?, ?, ?)", (lesson.id, mistake, text, points, who(), now()))
    return True


def load(db):
    """{lesson id: {mistake: the latest MistakeNote}}."""
    found = {}
    for lesson, mistake, text, points, by, at in db.execute(
            "SELECT lesson, mistake, text, points, by, at FROM mistake_notes ORDER BY id"):
        found.setdefault(lesson, {})[mistake] = MistakeNote(mistake, text, points, by, at)
    return found


def carried(notes, cur):
    """The notes (of one lesson) that apply to a current result: those its diagnosis names, and
    the note on the cluster it falls in."""
    if cur is None or cur.fault:
        return []
    ids = {d["mistake"] for d in cur.diagnosis} | ({CLUSTER + cur.cluster} if cur.cluster else set())
    return [n for m, n in notes.items() if m in ids]


def record(out, workbook, spec, text, points):
    """Record a note on the gradebook in `out`, with the run lock held, and rewrite the exports;
    (lesson id, mistake id, whether anything new was recorded, how many learners' current results
    carry it). Raises GraderError (CourseError) for bad input, recording nothing."""
    from .. import view
    from ..exports import changing
    lesson_name, mistake = split(spec)
    try:
        lesson = workbook.lesson(lesson_name)
    except UnknownLesson as exc:
        raise CourseError(str(exc)) from None
    with changing(out) as db:
        v = view.load(db)           # a note changes no diagnosis and no cluster
        added = add(db, lesson, mistake, text, points, v)
        note = {mistake: load(db)[lesson.id][mistake]}
    count = sum(bool(carried(note, cur)) for (_, lesson_id), cur in v.current.items()
                if lesson_id == lesson.id)
    return lesson.id, mistake, added, count
