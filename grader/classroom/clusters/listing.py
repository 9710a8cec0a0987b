"""`grader cluster LESSON`: the lesson's clusters, read from the gradebook (never changed), numbered
as `--promote` takes them, with their id, size, one file and how it differs from the reference."""
from grader.display import plural
from grader.errors import GraderError
from .. import view
from ..escape import terminal
from ..readonly import open_readonly
from . import groups
from .signature import PREFIX

MAX_NUMBER = 3          # digits of a cluster's number in the list; anything longer is an id


def load(out, workbook, lesson_name):
    """(the Lesson, the class as it is now, its [Cluster], how many answers stand alone), from the
    gradebook in `out`; raises GraderError for a missing gradebook or a lesson never graded."""
    lesson = workbook.lesson(lesson_name)
    db = open_readonly(out)
    try:
        v = view.load(db).present()
    finally:
        db.close()
    if lesson.id not in {l.id for l in v.lessons}:
        raise GraderError(f"lesson {lesson.id} was never graded into the gradebook in {out}")
    found, alone = groups.of_lesson(v, lesson.id)
    return lesson, v, found, alone


def pick(lesson, found, key):
    """The Cluster `key` names: its number in the list (from 1), or its id (with or without
    `cluster:`); raises GraderError listing the lesson's clusters."""
    key = key.strip()
    if key.isdigit() and len(key) <= MAX_NUMBER and 1 <= int(key) <= len(found):
        return found[int(key) - 1]
    match = next((c for c in found if key.removeprefix(PREFIX) == c.id), None)
    if match is None:
        listed = "; ".join(f"{n} {c.name} ({plural(len(c.learners), 'learner')})"
                           for n, c in enumerate(found, 1))
        raise GraderError(f"lesson {lesson.id} has no cluster {key!r}; "
                          + (f"its clusters: {listed}" if found else
                             "it has no clusters of unexplained wrong answers"))
    return match


def print_clusters(console, lesson, found, alone):
    number = f"{lesson.entry.number:02d}"
    if not found:
        console.print(f"Lesson {lesson.id} has no clusters of unexplained wrong answers"
                      + (f" ({plural(alone, 'answer')} unlike any other)." if alone else "."))
        return
    console.print(f"Lesson {lesson.id}: {plural(len(found), 'cluster')} of unexplained wrong "
                  "answers (the same outputs on every case)"
                  + (f", and {plural(alone, 'answer')} unlike any other." if alone else "."))
    for n, c in enumerate(found, 1):
        console.print(f"{n:>3}  {c.name}  {plural(len(c.learners), 'learner')}: "
                      f"{terminal(', '.join(c.learners))}")
        console.print(f"     one of their files: {terminal(c.representative)}")
        console.print(f"     fails {c.failed} of {c.cases} cases; the first: "
                      f"{terminal(c.difference)}")
    console.print(f"Comment on one for all its learners: grader comment --mistake "
                  f"{number}:{found[0].name} \"...\"; write one into the lesson's mistakes.py: "
                  f"grader cluster {number} --promote 1 --name NAME --message \"...\"")
