"""Grade files for learning-management systems, from the gradebook (the points every export uses).

* Canvas (Grades > Import): `Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`, then one
  column per lesson; a column whose name carries no Canvas assignment id in brackets becomes a
  new assignment on import. The second row, `Points Possible`, gives each lesson's points.
  Canvas matches a row to a student by its ID, SIS User ID or SIS Login ID; the gradebook knows
  no Canvas ID, so rows carry the roster's SIS id and the learner's id as the login.
* Moodle (Grade administration > Import > CSV file): a header row, the user fields to map one of
  (`Email address`, `ID number`, `Username`), then per lesson its grade and its feedback column,
  to map to a new grade item and to that item's feedback.

An empty cell is "no grade" in both (nothing graded for that lesson). Cells are written as
grades.csv's are: UTF-8 with a byte-order mark, no cell a spreadsheet would run as a formula.
"""
import re

from ..escape import csv_text, plain
from .. import feedback

CANVAS_ID = re.compile(r"\s*\(\d+\)\s*$")       # "Quiz 1 (1234)" names an existing assignment


def lesson_name(lesson):
    """The lesson's column name: its number and title (never ending in "(digits)")."""
    return CANVAS_ID.sub("", f"{lesson.number:02d} {plain(lesson.title, newlines=False)}")


def cell(value):
    return "" if value is None else f"{value:.4g}"


def member(view, learner):
    m = view.roster.get(learner)
    return (m.name or learner, m.email, m.section, m.sis_id) if m else (learner, "", "", "")


def canvas(view):
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
             *(lesson_name(l) for l in view.lessons)],
            ["Points Possible", "", "", "", "", *(f"{l.points:g}" for l in view.lessons)]]
    for learner in view.learners:
        name, _, section, sis = member(view, learner)
        rows.append([name, "", sis, learner, section,
                     *(cell(view.earned(learner, l.id)) for l in view.lessons)])
    return csv_text(rows)


def lesson_feedback(view, learner, lesson):
    """A line of feedback for the lesson: its status, the instructor's words, the late policy's."""
    _, blocks = feedback.lesson_blocks(view, learner, lesson)
    keep = ("status", "published", "points", "timing", "override", "comment")
    return " ".join(text for kind, text, _ in blocks if kind in keep)


def moodle(view):
    header = ["Email address", "ID number", "Username"]
    for l in view.lessons:
        header += [lesson_name(l), f"{lesson_name(l)} feedback"]
    rows = [header]
    for learner in view.learners:
        _, email, _, sis = member(view, learner)
        row = [email, sis, learner]
        for l in view.lessons:
            row += [cell(view.earned(learner, l.id)), lesson_feedback(view, learner, l)]
        rows.append(row)
    return csv_text(rows)


SYSTEMS = ("canvas", "moodle")


def export(system, view):
    """The `system` import file of the lessons whose feedback is released."""
    return {"canvas": canvas, "moodle": moodle}[system](view.released())
