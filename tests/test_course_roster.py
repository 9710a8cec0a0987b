"""The roster: learners on it with no folder are graded as having submitted nothing, everywhere;
folders not on it are graded and named as not on the roster; a roster that cannot be used is
refused with the line at fault, before anything is graded."""
import csv

import pytest
from hypothesis import given, strategies as st

from conftest import GOOD_SOFTMAX, grader
from grader.classroom.course import roster
from grader.classroom.course.table import CourseError
from mixed_class import put

ROSTER = "id,name,email,section,sis_id\nalice,Alice A,alice@example.org,A,S1\n" \
         "bob,Bob B,bob@example.org,B,S2\n"


def graded(sources, tmp_path, roster_text=ROSTER):
    cls, out = tmp_path / "class", tmp_path / "out"
    put(cls / "alice" / "01-softmax.py", GOOD_SOFTMAX)
    put(cls / "zed" / "01-softmax.py", GOOD_SOFTMAX)
    (tmp_path / "roster.csv").write_text(roster_text)
    done = grader(sources, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox",
                  "--jobs", "1", "--roster", str(tmp_path / "roster.csv"))
    return done, out


def test_roster_learners_without_a_folder_and_folders_off_the_roster(lesson_sources, tmp_path):
    done, out = graded(lesson_sources, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no folder in the class" in done.stdout and "bob" in done.stdout
    assert "not on the roster (1 learner): zed" in done.stdout
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        rows = {r["learner"]: r for r in csv.DictReader(f)}
    assert rows["bob"]["01-softmax"] == "" and rows["bob"]["status"] == ""
    assert rows["zed"]["status"] == "not on the roster" and rows["zed"]["01-softmax"] == "1"
    assert rows["alice"]["01-softmax"] == "1" and rows["alice"]["status"] == ""
    assert "not submitted" in (out / "feedback" / "bob.md").read_text()
    assert (out / "gradescope" / "bob" / "results.json").exists()
    report = grader(lesson_sources, "report", "--no-html", "--gradebook", str(out))
    assert report.returncode == 0, report.stdout + report.stderr
    assert "Submitted nothing at all: bob" in report.stdout
    assert "not on the roster: zed" in report.stdout


@pytest.mark.parametrize("text, words", [
    ("name,email,section\nA,a@x,1\n", "no column id"),
    ("id,name,email,section\nalice,A,a@x,1\nalice,B,b@x,2\n", "line 3: learner 'alice' is on "
                                                             "the roster already (line 2)"),
    ("id,name,email,section\nalice,A,not-an-address,1\n", "is not an e-mail address"),
    ("id,name,email,section\n,A,a@x,1\n", "line 2: no learner id"),
    ("id,name,email,section\nalice,A,a@x,1,extra\n", "line 2: 5 fields"),
    ("", "is empty"),
    ('id,name,email,section\nalice,"A,a@x,1\n', "not valid CSV"),
])
def test_a_bad_roster_is_refused_with_its_line_and_nothing_is_graded(lesson_sources, tmp_path,
                                                                      text, words):
    done, out = graded(lesson_sources, tmp_path, text)
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert words in done.stdout, done.stdout
    assert not (out / "gradebook.sqlite").exists()


def test_a_roster_that_is_not_utf8_is_refused(tmp_path):
    (tmp_path / "r.csv").write_bytes(b"id,name,email,section\nzo\xeb,Z,z@x,1\n")
    with pytest.raises(CourseError, match="not UTF-8"):
        roster.read(tmp_path / "r.csv")


def test_headers_go_by_their_usual_names_and_a_bom_is_read(tmp_path):
    (tmp_path / "r.csv").write_text("\ufeffStudent ID,Full Name,E-mail,Section,SIS User ID\n"
                                    "zoë,Zoë Z,z@x.org,B,77\n", encoding="utf-8")
    assert roster.read(tmp_path / "r.csv") == [roster.Member("zoë", "Zoë Z", "z@x.org", "B", "77")]


CELL = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)


@given(st.lists(st.lists(CELL | st.sampled_from(["id", "name", "email", "section", "a@b", '"',
                                                  ","]), max_size=6), max_size=6))
def test_any_roster_file_reads_or_is_refused_with_a_course_error(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("r") / "roster.csv"
    path.write_text("\n".join(",".join(r) for r in rows), encoding="utf-8")
    try:
        members = roster.read(path)
    except CourseError as exc:
        assert str(exc)
    else:
        assert all(m.id for m in members) and len({m.id for m in members}) == len(members)


@given(st.binary(max_size=200))
def test_any_bytes_as_a_roster_read_or_are_refused_with_a_course_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("r") / "roster.csv"
    path.write_bytes(b"id,name,email,section\n" + data)
    try:
        roster.read(path)
    except CourseError:
        pass
