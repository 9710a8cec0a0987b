"""The instructor's overrides and comments: kept in the gradebook with who and when, shown on the
learner's feedback, in grades.csv and Gradescope's results, kept across regrades (an override says
when the submission it was made for has changed since); bad input refused with a clear message."""
import csv
import getpass
import json
import shutil
import sqlite3
from contextlib import closing

import pytest

from conftest import GOOD_SOFTMAX, grader
from mixed_class import MISTAKE, put


def grade(sources, cls, out, *extra):
    done = grader(sources, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox",
                  "--jobs", "1", *extra)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def grades(out):
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        return {r["learner"]: r for r in csv.DictReader(f)}


def test_overrides_and_comments_are_kept_shown_and_exported_across_regrades(lesson_sources,
                                                                             tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    put(cls / "alice" / "01-softmax.py", GOOD_SOFTMAX)
    put(cls / "bob" / "01-softmax.py", MISTAKE)
    grade(lesson_sources, cls, out)
    assert float(grades(out)["bob"]["01-softmax"]) < 0.9
    done = grader(lesson_sources, "override", "bob", "01", "--score", "0.9", "--comment",
                  "partial credit: the idea is right", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    done = grader(lesson_sources, "comment", "alice", "softmax", "Neat use of keepdims",
                  "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        assert db.execute("SELECT learner, lesson, score, by FROM overrides").fetchall() == [
            ("bob", "01-softmax", 0.9, getpass.getuser())]
    grade(lesson_sources, cls, out, "--regrade")
    rows = grades(out)
    assert rows["bob"]["01-softmax"] == "0.9" and rows["bob"]["total"] == "0.9"
    assert "overridden to 0.9" in rows["bob"]["instructor notes"]
    assert "Neat use of keepdims" in rows["alice"]["instructor notes"]
    page = (out / "feedback" / "bob.html").read_text()
    assert "set this lesson&#x27;s score to 0.9 of 1 points" in page
    assert "partial credit: the idea is right" in page and "earlier version" not in page
    assert "Neat use of keepdims" in (out / "feedback" / "alice.md").read_text()
    results = json.loads((out / "gradescope" / "bob" / "results.json").read_text())
    assert results["score"] == 0.9
    put(cls / "bob" / "01-softmax.py", GOOD_SOFTMAX)         # bob hands in again
    grade(lesson_sources, cls, out)
    assert grades(out)["bob"]["01-softmax"] == "0.9"
    assert "earlier version of your submission" in (out / "feedback" / "bob.html").read_text()
    assert "set for an earlier submission" in grades(out)["bob"]["instructor notes"]


@pytest.fixture(scope="module")
def graded_bob(lesson_sources, tmp_path_factory):
    """A gradebook of one learner on lesson 01; tests copy it."""
    cls, out = tmp_path_factory.mktemp("bob") / "class", tmp_path_factory.mktemp("bob") / "out"
    put(cls / "bob" / "01-softmax.py", MISTAKE)
    grade(lesson_sources, cls, out)
    return out


@pytest.mark.parametrize("args, words", [
    (["override", "zed", "01", "--score", "1"], "the gradebook has no learner 'zed'"),
    (["override", "bob", "nope", "--score", "1"], "There is no lesson named 'nope'"),
    (["override", "bob", "02", "--score", "1"], "lesson 02-attention was never graded"),
    (["override", "bob", "01", "--score", "3"], "is worth 1 points, so a score is from 0 to 1"),
    (["override", "bob", "01", "--score", "nan"], "a score is from 0 to 1"),
    (["override", "bob", "01", "--score", "x"], "Invalid value for '--score'"),
    (["comment", "bob", "01", "  "], "the comment is empty"),
    (["comment", "bob", "01", "hi", "--out", "{nowhere}"], "there is no gradebook"),
])
def test_bad_overrides_and_comments_get_a_clear_message(lesson_sources, graded_bob, tmp_path,
                                                        args, words):
    out = tmp_path / "out"
    shutil.copytree(graded_bob, out)
    args = [a.format(nowhere=tmp_path / "nowhere") for a in args]
    done = grader(lesson_sources, *args, *([] if "--out" in args else ["--out", str(out)]))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert words in done.stdout + done.stderr, done.stdout + done.stderr
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        assert db.execute("SELECT COUNT(*) FROM overrides").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM comments").fetchone()[0] == 0
