"""Canvas's and Moodle's grade-import files: read by the rules their documentation gives (checked
on an example written from that documentation), the grader's exports carry every learner's points,
each lesson's points possible, the fields to match learners by, and the feedback."""
import csv
import io
import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from conftest import grader
from grader.classroom.course import lms
from grader.classroom.course.notes import Override
from grader.classroom.course.roster import Member
from grader.classroom.view import ClassView, Current, LessonInfo
from grader.judge.points import Rule

FIXTURES = Path(__file__).parent / "lms"
CANVAS_FIXED = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_USER_FIELDS = {"Email address", "ID number", "Username"}


def rows_of(text):
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))


def read_canvas(text):
    """{(assignment, new?): points possible}, {student key: {assignment: score or None}}."""
    rows = rows_of(text)
    header = rows[0]
    assert header[:5] == CANVAS_FIXED
    assert rows[1][0].strip() == "Points Possible"
    assignments = [(name, not re.search(r"\(\d+\)\s*$", name)) for name in header[5:]]
    possible = dict(zip(assignments, map(float, rows[1][5:])))
    students = {}
    for row in rows[2:]:
        key = next(k for k in (row[1], row[2], row[3]) if k)      # ID, SIS User ID or Login
        students[key] = {name: float(v) if v else None for (name, _), v in zip(assignments, row[5:])}
    return possible, students


def read_moodle(text):
    """{user field: column}, {item: (grade column, feedback column)}, rows as dicts."""
    rows = rows_of(text)
    header = rows[0]
    users = [h for h in header if h in MOODLE_USER_FIELDS]
    assert users
    items = {}
    rest = [h for h in header if h not in MOODLE_USER_FIELDS]
    for name in rest:
        if not name.endswith(" feedback"):
            assert f"{name} feedback" in rest
            items[name] = (header.index(name), header.index(f"{name} feedback"))
    return users, items, [dict(zip(header, r)) for r in rows[1:]]


def test_the_readers_read_the_examples_from_the_documentation():
    possible, students = read_canvas((FIXTURES / "canvas_import.csv").read_text())
    assert possible == {("Quiz 1 (4821)", False): 10, ("New Homework", True): 20}
    assert students["1001"]["New Homework"] == 17.5 and students["1002"]["Quiz 1 (4821)"] is None
    users, items, rows = read_moodle((FIXTURES / "moodle_import.csv").read_text())
    assert set(users) == MOODLE_USER_FIELDS and list(items) == ["Essay 1"]
    assert rows[0]["Essay 1 feedback"].startswith("Clear argument")


def a_class(names=("ada", "ben"), title="A stable softmax"):
    lessons = [LessonInfo("01-softmax", 1, title, [], Rule(10)),
               LessonInfo("02-attention", 2, "Attention (2)", [], Rule(4))]
    current = {(names[0], "01-softmax"): Current("01-softmax", 0.5, False, 1, 2, None, None, None,
                                                 False, None, [], [], "t", "a.py", earned=5.0)}
    roster = {names[0]: Member(names[0], "Ada L", "ada@example.org", "S1", "77")}
    overrides = {(names[-1], "02-attention"): Override(3.0, "oral exam", None, "prof", "2026-03-01")}
    return ClassView(lessons, list(names), current, [], set(), roster, overrides)


def test_the_canvas_export_reads_as_canvas_documents_it():
    view = a_class()
    possible, students = read_canvas(lms.canvas(view))
    assert possible == {("01 A stable softmax", True): 10, ("02 Attention", True): 4}
    assert students["77"] == {"01 A stable softmax": 5.0, "02 Attention": None}
    assert students["ben"] == {"01 A stable softmax": None, "02 Attention": 3.0}
    rows = rows_of(lms.canvas(view))
    assert rows[2][0] == "Ada L" and rows[2][4] == "S1" and rows[3][0] == "ben"


def test_the_moodle_export_reads_as_moodle_documents_it():
    users, items, rows = read_moodle(lms.moodle(a_class()))
    assert list(items) == ["01 A stable softmax", "02 Attention"]
    ada, ben = rows
    assert (ada["Email address"], ada["ID number"], ada["Username"]) == ("ada@example.org", "77",
                                                                         "ada")
    assert ada["01 A stable softmax"] == "5" and ben["02 Attention"] == "3"
    assert "oral exam" in ben["02 Attention feedback"]
    assert "not submitted" in ben["01 A stable softmax feedback"]


NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs")), min_size=1, max_size=12)
TITLES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@given(st.lists(NAMES, min_size=1, max_size=4, unique=True), TITLES)
def test_any_names_and_titles_still_read_as_the_documents_say(names, title):
    view = a_class(tuple(names), title)
    _, students = read_canvas(lms.canvas(view))
    assert len(students) == len(names)
    _, _, rows = read_moodle(lms.moodle(view))
    assert len(rows) == len(names)
    for text in (lms.canvas(view), lms.moodle(view)):
        for row in rows_of(text):
            assert not any(c.startswith(("=", "+", "-", "@")) for c in row)


def test_export_without_a_gradebook_or_of_an_unknown_system_is_refused(lesson_sources, tmp_path):
    done = grader(lesson_sources, "export", "canvas", str(tmp_path / "c.csv"), "--gradebook",
                  str(tmp_path / "none"))
    assert done.returncode == 2 and "there is no gradebook" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr and not (tmp_path / "c.csv").exists()
    done = grader(lesson_sources, "export", "blackboard", str(tmp_path / "c.csv"))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
