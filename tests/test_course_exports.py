"""`grader override`, `grader comment` (on a learner or on a mistake) and `grader release` rewrite
the output folder's exports from the gradebook at once, with nothing graded again: grades.csv, the
feedback pages, Gradescope's results and the Canvas and Moodle files (lms/); a kill -9 while they
are written loses nothing, and the next command writes them whole."""
import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from conftest import GOOD_SOFTMAX, grader
from mixed_class import MISTAKE, put, reference
from test_class_resume import kill_when

NOTE = "Subtract the maximum of each slice before np.exp"


@pytest.fixture(scope="module")
def graded(lesson_sources, tmp_path_factory):
    """alice right and bob without the max shift on lessons 01 and 03, graded into `auto` (every
    lesson released) and `manual` (release = "manual"); tests copy the output folders."""
    top = tmp_path_factory.mktemp("exports")
    put(top / "class" / "alice" / "01-softmax.py", GOOD_SOFTMAX)
    put(top / "class" / "bob" / "01-softmax.py", MISTAKE)
    for learner in ("alice", "bob"):
        put(top / "class" / learner / "03-causal-mask.py", reference("03-causal-mask"))
    for release in ("auto", "manual"):
        (top / f"{release}.toml").write_text(f'release = "{release}"\n')
        done = grader(lesson_sources, "grade", str(top / "class"), "--lessons", "01,03", "--out",
                      str(top / release), "--no-sandbox", "--jobs", "1", "--course",
                      str(top / f"{release}.toml"))
        assert done.returncode == 0, done.stdout + done.stderr
    return top


def copied(graded, tmp_path, release):
    shutil.copytree(graded / release, tmp_path / release)
    return tmp_path / release


def run(sources, out, *args):
    done = grader(sources, *args, "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "are rewritten from the gradebook (nothing is graded again)" in " ".join(
        done.stdout.split())
    return done


def graded_rows(out):
    """The gradebook's results and submissions: what a regrade would add to."""
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        return (db.execute("SELECT * FROM results").fetchall(),
                db.execute("SELECT * FROM submissions").fetchall())


def table(path):
    """A CSV export's rows, the Canvas file's `Points Possible` row left out."""
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8-sig"))))
    return [dict(zip(rows[0], r)) for r in rows[1:] if r[0] != "Points Possible"]


def by(rows, key):
    return {r[key]: r for r in rows}


def canvas(out):
    return by(table(out / "lms" / "canvas.csv"), "SIS Login ID")


def gradescope(out, learner):
    return json.loads((out / "gradescope" / learner / "results.json").read_text())


def test_an_override_and_comments_rewrite_every_export_at_once(lesson_sources, graded, tmp_path):
    out = copied(graded, tmp_path, "auto")
    before = graded_rows(out)
    run(lesson_sources, out, "override", "bob", "01", "--score", "0.9", "--comment",
        "the idea is right")
    grades = by(table(out / "grades.csv"), "learner")
    assert grades["bob"]["01-softmax"] == "0.9" and grades["bob"]["total"] == "1.9"
    assert "overridden to 0.9" in grades["bob"]["instructor notes"]
    assert "score to 0.9 of 1 points" in (out / "feedback" / "bob.md").read_text()
    assert "the idea is right" in (out / "feedback" / "bob.html").read_text()
    assert gradescope(out, "bob")["score"] == 1.9
    assert canvas(out)["bob"]["01 A stable softmax"] == "0.9"
    moodle = by(table(out / "lms" / "moodle.csv"), "Username")
    assert moodle["bob"]["01 A stable softmax"] == "0.9"
    assert "the idea is right" in moodle["bob"]["01 A stable softmax feedback"]

    run(lesson_sources, out, "comment", "alice", "03", "Tidy mask")
    run(lesson_sources, out, "comment", "--mistake", "01:no-max-shift", NOTE)
    assert "Tidy mask" in by(table(out / "grades.csv"), "learner")["alice"]["instructor notes"]
    assert "Tidy mask" in (out / "feedback" / "alice.md").read_text()
    moodle = by(table(out / "lms" / "moodle.csv"), "Username")
    assert "Tidy mask" in moodle["alice"]["03 The causal mask feedback"]
    assert NOTE in moodle["bob"]["01 A stable softmax feedback"]
    assert NOTE in json.dumps(gradescope(out, "bob")) and NOTE not in json.dumps(
        gradescope(out, "alice"))
    assert graded_rows(out) == before            # nothing was graded again


def test_a_release_rewrites_what_leaves_and_publishes_it(lesson_sources, graded, tmp_path):
    out = copied(graded, tmp_path, "manual")
    before = graded_rows(out)

    def leaving():
        tests = {t["tags"][0] for t in gradescope(out, "bob")["tests"] if "tags" in t}
        columns = set(table(out / "lms" / "canvas.csv")[0]) - {"Student", "ID", "SIS User ID",
                                                               "SIS Login ID", "Section"}
        with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
            shown = {lesson for (lesson,) in db.execute("SELECT lesson FROM published")}
        return tests, columns, shown

    assert leaving() == (set(), set(), set())
    run(lesson_sources, out, "release", "03")
    assert leaving() == ({"03-causal-mask"}, {"03 The causal mask"}, {"03-causal-mask"})
    assert "03-causal-mask" in (out / "feedback" / "bob.md").read_text()
    assert graded_rows(out) == before


def test_a_kill_while_an_override_rewrites_the_exports_loses_nothing(lesson_sources, tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    put(cls / "bob" / "01-softmax.py", MISTAKE)
    for i in range(300):            # learners with nothing handed in: slow enough to export
        (cls / f"z{i:03d}").mkdir()
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    was = by(table(out / "grades.csv"), "learner")["bob"]["01-softmax"]
    exported = [p for p in out.rglob("*") if p.is_file() and p.suffix != ".sqlite"]
    proc = subprocess.Popen([sys.executable, "-m", "grader", "override", "bob", "01", "--score",
                             "0.9", "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=lesson_sources,
                            env={**os.environ, "WORKBOOK_ROOT": str(lesson_sources)})
    assert kill_when(proc, lambda: any(p.name.endswith(".tmp") for p in
                                       os.scandir(out / "feedback")))
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT learner, score FROM overrides").fetchall() == [("bob", 0.9)]
    for path in exported:           # every file whole: as it was, or as it is now
        if path.suffix == ".json":
            json.loads(path.read_text())
    assert by(table(out / "grades.csv"), "learner")["bob"]["01-softmax"] in (was, "0.9")
    again = grader(lesson_sources, "comment", "bob", "01", "Look again", "--out", str(out))
    assert again.returncode == 0, again.stdout + again.stderr
    assert not list(out.rglob(".*.tmp"))
    assert by(table(out / "grades.csv"), "learner")["bob"]["01-softmax"] == "0.9"
    assert gradescope(out, "bob")["score"] == 0.9
    assert canvas(out)["bob"]["01 A stable softmax"] == "0.9"
    assert "Look again" in (out / "feedback" / "bob.md").read_text()
