"""The demo course (`make grade COURSE=grader/classroom/demo_course`): the demo class with a roster,
points and due dates, two extensions, one late learner, one override and one comment, each held on
the feedback pages, in the report and in every export."""
import csv
import io
import json
import os
import sqlite3
import subprocess
from contextlib import closing

import pytest

from conftest import ROOT, grader

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("demo_course")]   # graded once
COURSE = "grader/classroom/demo_course"


def make(*args):
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    env["MAKEFLAGS"] = " -- STAMP="       # the venv is set up: run the recipes as written
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True,
                          text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo-course") / "grading"
    done = make("grade", f"COURSE={COURSE}", "LESSONS=01,05", f"OUT={out}")
    assert done.returncode == 0, done.stdout + done.stderr
    again = make("demo-notes", f"COURSE={COURSE}", "LESSONS=01,05", f"OUT={out}")   # made once
    assert again.returncode == 0 and "has this override already" in again.stdout, again.stdout
    return out


def rows(text):
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def page(out, learner):
    return (out / "feedback" / f"{learner}.html").read_text()


def test_the_feedback_pages_say_what_the_course_did(course):
    jon = page(course, "jon")
    assert "Handed in 2026-02-08 09:00 UTC (Gradescope&#x27;s submission time)" in jon
    assert "Due 2026-02-06 22:59 UTC." in jon and "Handed in 2 days late: 20% of the points off" in jon
    assert "Due 2026-02-09 22:59 UTC (extended by 3 days). Handed in on time." in page(course, "ines")
    assert "Due 2026-03-20 22:59 UTC (your extension)" in page(course, "mo")
    assert "set this lesson&#x27;s score to 1 of 2 points" in page(course, "hugo")
    assert "Subtract each row&#x27;s maximum before exp" in page(course, "chloe")
    assert "not submitted" in (course / "feedback" / "quinn.md").read_text()


def test_the_exports_count_the_late_penalty_and_the_override(course):
    with open(course / "grades.csv", newline="", encoding="utf-8-sig") as f:
        grades = {r["learner"]: r for r in csv.DictReader(f)}
    assert grades["jon"]["01-softmax"] == "1.6"          # 2 points, 20% off
    assert grades["ines"]["01-softmax"] == "2" and grades["hugo"]["01-softmax"] == "1"
    assert "overridden to 1" in grades["hugo"]["instructor notes"]
    assert "comment by" in grades["chloe"]["instructor notes"]
    assert grades["quinn"]["01-softmax"] == "" and grades["quinn"]["total"] == "0"
    results = json.loads((course / "gradescope" / "jon" / "results.json").read_text())
    [lesson] = [t for t in results["tests"] if t["number"] == "1"]
    assert (lesson["score"], lesson["max_score"]) == (1.6, 2)
    with closing(sqlite3.connect(course / "gradebook.sqlite")) as db:
        assert db.execute("SELECT COUNT(*) FROM overrides").fetchone() == (1,)
        assert db.execute("SELECT COUNT(*) FROM comments").fetchone() == (1,)
        assert dict(db.execute("SELECT id, points FROM lessons")) == {"01-softmax": 2,
                                                                     "05-layer-norm": 2}


def test_the_report_and_the_lms_files_say_the_same(course, tmp_path):
    report = grader(ROOT, "report", "--no-html", "--gradebook", str(course))
    assert report.returncode == 0, report.stdout + report.stderr
    assert "Submitted nothing at all: kai, quinn" in report.stdout
    assert "Hand-in time from Gradescope's submission time: ada" in report.stdout
    done = grader(ROOT, "export", "canvas", str(tmp_path / "canvas.csv"), "--gradebook", str(course))
    assert done.returncode == 0, done.stdout + done.stderr
    canvas = rows((tmp_path / "canvas.csv").read_text())
    assert canvas[1] == ["Points Possible", "", "", "", "", "2", "2"]
    jon = next(r for r in canvas if r[3] == "jon")
    assert jon[:5] == ["Jon Berg", "", "1010", "jon", "B"] and jon[5] == "1.6"
    done = grader(ROOT, "export", "moodle", str(tmp_path / "moodle.csv"), "--gradebook", str(course))
    assert done.returncode == 0, done.stdout + done.stderr
    moodle = rows((tmp_path / "moodle.csv").read_text())
    hugo = dict(zip(moodle[0], next(r for r in moodle if r[2] == "hugo")))
    assert hugo["01 A stable softmax"] == "1" and "Looked at by hand" in hugo[
        "01 A stable softmax feedback"]
