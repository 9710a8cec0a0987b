"""A comment on a known mistake (`grader comment --mistake LESSON:ID`): every learner whose current
result carries the mistake gets it, with its points, on every export and on later runs; a learner
who fixes the mistake no longer does; bad input is refused, recording nothing."""
import csv
import getpass
import json
import shutil
import sqlite3
from contextlib import closing

import pytest
from hypothesis import given, strategies as st

from conftest import GOOD_SOFTMAX, grader
from grader.classroom.course import mistake_notes
from grader.classroom.course.table import CourseError
from grader.classroom.gradebook import connect
from mixed_class import MISTAKE, put

OTHER_WAY = MISTAKE.replace("e / np.sum(e, axis=axis, keepdims=True)",
                            "e / e.sum(axis=axis, keepdims=True)")
NOTE = "Subtract the maximum of each slice before np.exp"


def grade(sources, cls, out):
    done = grader(sources, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox",
                  "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def grades(out):
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        return {r["learner"]: r for r in csv.DictReader(f)}


@pytest.fixture(scope="module")
def graded_class(lesson_sources, tmp_path_factory):
    """alice right, bob and carol with the no-max-shift mistake written two ways; tests copy it."""
    cls, out = tmp_path_factory.mktemp("cls") / "class", tmp_path_factory.mktemp("cls") / "out"
    put(cls / "alice" / "01-softmax.py", GOOD_SOFTMAX)
    put(cls / "bob" / "01-softmax.py", MISTAKE)
    put(cls / "carol" / "01-softmax.py", OTHER_WAY)
    grade(lesson_sources, cls, out)
    return cls, out


def copied(graded_class, tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    shutil.copytree(graded_class[0], cls)
    shutil.copytree(graded_class[1], out)
    return cls, out


def test_a_mistake_note_reaches_everyone_with_the_mistake_on_every_export(lesson_sources,
                                                                           graded_class, tmp_path):
    cls, out = copied(graded_class, tmp_path)
    before = grades(out)
    done = grader(lesson_sources, "comment", "--mistake", "01:no-max-shift", NOTE, "--points",
                  "-0.25", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 learners' current results carry it" in done.stdout
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        assert db.execute("SELECT lesson, mistake, text, points, by FROM mistake_notes").fetchall() \
            == [("01-softmax", "no-max-shift", NOTE, -0.25, getpass.getuser())]
    grade(lesson_sources, cls, out)
    rows = grades(out)
    for learner in ("bob", "carol"):
        assert float(rows[learner]["01-softmax"]) == pytest.approx(
            float(before[learner]["01-softmax"]) - 0.25, abs=1e-3)
        assert NOTE in rows[learner]["instructor notes"]
        assert NOTE in (out / "feedback" / f"{learner}.html").read_text()
        results = json.loads((out / "gradescope" / learner / "results.json").read_text())
        assert NOTE in results["tests"][0]["output"]
        assert results["score"] == pytest.approx(float(rows[learner]["01-softmax"]), abs=1e-3)
    assert rows["alice"]["01-softmax"] == "1" and rows["alice"]["instructor notes"] == ""
    assert NOTE not in (out / "feedback" / "alice.html").read_text()
    moodle = tmp_path / "moodle.csv"
    assert grader(lesson_sources, "export", "moodle", str(moodle), "--gradebook",
                  str(out)).returncode == 0
    feedback = {r["Username"]: next(v for k, v in r.items() if k.endswith(" feedback"))
                for r in csv.DictReader(moodle.open(encoding="utf-8-sig"))}
    assert NOTE in feedback["bob"] and NOTE not in feedback["alice"]
    put(cls / "bob" / "01-softmax.py", GOOD_SOFTMAX)          # bob fixes the mistake
    grade(lesson_sources, cls, out)
    rows = grades(out)
    assert rows["bob"]["01-softmax"] == "1" and NOTE not in rows["bob"]["instructor notes"]
    assert NOTE not in (out / "feedback" / "bob.md").read_text()
    assert NOTE in rows["carol"]["instructor notes"]


@pytest.mark.parametrize("args, words", [
    (["--mistake", "01:no-such-thing", "x"], "no known mistake or symptom 'no-such-thing'"),
    (["--mistake", "01:no-such-thing", "x"], "no-max-shift, fixed-last-axis, global-max"),
    (["--mistake", "01:cluster:0000abcd", "x"], "no cluster 'cluster:0000abcd'; its clusters: none"),
    (["--mistake", "no-max-shift", "x"], "name the lesson and the mistake as LESSON:ID"),
    (["--mistake", "nope:no-max-shift", "x"], "There is no lesson named 'nope'"),
    (["--mistake", "02:scale", "x"], "lesson 02-attention was never graded"),
    (["--mistake", "01:no-max-shift", "  "], "the comment is empty"),
    (["--mistake", "01:no-max-shift", "x", "--points", "2"], "an adjustment is from -1 to 1"),
    (["--mistake", "01:no-max-shift", "x", "--points", "nan"], "an adjustment is from -1 to 1"),
    (["--mistake", "01:no-max-shift", "x", "y"], "takes one TEXT"),
    (["bob", "01", "x", "--points", "1"], "--points goes with --mistake"),
    (["bob", "01"], "grader comment takes LEARNER LESSON TEXT"),
    (["--mistake", "01:no-max-shift", "x", "--out", "{nowhere}"], "there is no gradebook"),
])
def test_bad_mistake_notes_get_a_clear_message_and_record_nothing(lesson_sources, graded_class,
                                                                  tmp_path, args, words):
    _, out = copied(graded_class, tmp_path)
    args = [a.format(nowhere=tmp_path / "nowhere") for a in args]
    done = grader(lesson_sources, "comment", *args, *([] if "--out" in args else ["--out", str(out)]))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert words in done.stdout + done.stderr, done.stdout + done.stderr
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        assert db.execute("SELECT COUNT(*) FROM mistake_notes").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM comments").fetchone()[0] == 0


@given(st.text(max_size=40))
def test_any_mistake_spec_is_split_at_its_first_colon_or_refused(spec):
    lesson, sep, mistake = spec.partition(":")
    try:
        assert mistake_notes.split(spec) == (lesson.strip(), mistake.strip())
    except CourseError as exc:
        assert not (sep and lesson.strip() and mistake.strip()) and "LESSON:ID" in str(exc)


@given(mistake=st.one_of(st.sampled_from(["no-max-shift", "global-max"]), st.text(max_size=30)),
       text=st.text(max_size=30), points=st.one_of(st.none(), st.floats(allow_nan=True)))
def test_any_note_is_recorded_only_when_it_names_a_known_mistake(graded_class, softmax_lesson,
                                                                  tmp_path_factory, mistake, text,
                                                                  points):
    path = tmp_path_factory.mktemp("book") / "gradebook.sqlite"
    shutil.copyfile(graded_class[1] / "gradebook.sqlite", path)
    with closing(connect(path)) as db:
        known = mistake_notes.known_ids(db, softmax_lesson)
        try:
            mistake_notes.add(db, softmax_lesson, mistake, text, points)
        except CourseError:
            recorded = False
        else:
            recorded = True
        assert recorded == (mistake in known and bool(text.strip()) and (
            points is None or abs(points) <= 1))
        assert db.execute("SELECT COUNT(*) FROM mistake_notes").fetchone()[0] == recorded
