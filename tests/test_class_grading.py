"""`grader grade` from an instructor's point of view: a class folder in, a gradebook and a CSV out."""
import csv
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pytest

from conftest import ROOT, grader
from grader.lessons import lesson as lessons, roadmap

MISTAKE = """\
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
"""


def make_class(tmp_path, workbook):
    """alice: both lessons right; bob: lesson 01 untouched, 02 right, in an exercises/ tree;
    carol: a known mistake in 01; dave: submitted nothing; eve: a link to the reference."""
    cls = tmp_path / "class"
    for lesson in ("01-softmax", "02-attention"):
        (cls / "alice" / lesson).mkdir(parents=True)
        shutil.copy(ROOT / "solutions" / lesson / "solution.py", cls / "alice" / lesson)
    (cls / "bob" / "exercises").mkdir(parents=True)
    shutil.copytree(workbook / "exercises" / "01-softmax", cls / "bob" / "exercises" / "01-softmax")
    shutil.copytree(ROOT / "solutions" / "02-attention", cls / "bob" / "exercises" / "02-attention")
    (cls / "carol").mkdir()
    (cls / "carol" / "01-softmax.py").write_text(MISTAKE)
    (cls / "dave").mkdir()
    (cls / "eve" / "01-softmax").mkdir(parents=True)
    (cls / "eve" / "01-softmax" / "solution.py").symlink_to(workbook / "solutions" / "01-softmax"
                                                            / "solution.py")
    return cls


@pytest.mark.parametrize("sandbox", [[], ["--no-sandbox"]], ids=["sandboxed", "no-sandbox"])
def test_a_class_is_graded_into_a_gradebook_and_a_csv(workbook, tmp_path, sandbox):
    cls = make_class(tmp_path, workbook)
    out = tmp_path / "out"
    done = grader(workbook, "grade", str(cls), "--lessons", "01,attention", "--out", str(out),
                  "--jobs", "2", *sandbox)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Graded 6 submissions from 5 learners on 2 lessons" in done.stdout
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows == [["learner", "01-softmax", "02-attention", "total"],
                    ["alice", "1", "1", "2"], ["bob", "0", "1", "1"],
                    ["carol", rows[3][1], "", rows[3][1]], ["dave", "", "", "0"],
                    ["eve", "0", "", "0"]]
    assert 0 < float(rows[3][1]) < 1
    db = sqlite3.connect(out / "gradebook.sqlite")
    assert sorted(r[0] for r in db.execute("SELECT id FROM learners")) == ["alice", "bob", "carol",
                                                                         "dave", "eve"]
    (error,), = db.execute("SELECT r.error FROM results r JOIN submissions s "
                           "ON s.id = r.submission WHERE s.learner = 'eve'")
    assert "is a symbolic link" in error and "links are not followed" in error
    (diagnosis, hashed, n_cases), = db.execute(
        "SELECT r.diagnosis, s.sha256, COUNT(c.position) FROM results r JOIN submissions s "
        "ON s.id = r.submission JOIN case_results c ON c.result = r.id WHERE s.learner = 'carol'")
    assert json.loads(diagnosis)[0]["mistake"] == "no-max-shift"
    assert len(hashed) == 64 and n_cases == len(lessons.load(roadmap.load(ROOT), "01").cases)
    (version,), = db.execute("SELECT DISTINCT grader_version FROM results")
    assert version.startswith("0.1.0+") and len(version) == len("0.1.0+") + 12


def test_grading_refuses_to_run_unsandboxed_by_accident(workbook, tmp_path):
    cls = make_class(tmp_path, workbook)
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(cls)], capture_output=True,
                          text=True, cwd=workbook, env={"WORKBOOK_ROOT": str(workbook),
                                                        "PATH": str(tmp_path / "nothing-here")})
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert "bubblewrap is not installed" in done.stdout and "--no-sandbox" in done.stdout
    assert not (workbook / "grading").exists()


@pytest.mark.parametrize("args, words", [
    (["no-such-folder"], "is not a folder of submissions"),
    (["{empty}"], "holds no learner folders"),
    (["{class}", "--lessons", "01,nope"], "There is no lesson named 'nope'"),
    (["{class}", "--jobs", "0"], "Invalid value for '--jobs'"),
])
def test_bad_input_gets_a_clear_message(workbook, tmp_path, args, words):
    (tmp_path / "empty").mkdir()
    cls = make_class(tmp_path, workbook)
    args = [a.format(empty=tmp_path / "empty", **{"class": cls}) for a in args]
    done = grader(workbook, "grade", *args, "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert words in done.stdout + done.stderr


def test_watch_rechecks_on_save(workbook):
    env_root = {"WORKBOOK_ROOT": str(workbook), "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "grader", "watch", "01", "--interval", "0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=workbook, env={**os.environ, **env_root})
    try:
        lines = []
        while not any("Checked at" in line for line in lines):
            lines.append(proc.stdout.readline())
        cases = len(lessons.load(roadmap.load(ROOT), "01").cases)
        assert any(f"0/{cases} cases passed" in line for line in lines)
        shutil.copy(ROOT / "solutions" / "01-softmax" / "solution.py",
                    workbook / "exercises" / "01-softmax" / "solution.py")
        lines = []
        while not any("Checked at" in line for line in lines):
            lines.append(proc.stdout.readline())
        assert any("A stable softmax  passed" in line for line in lines)
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=120)
    assert code == 0
    progress = json.loads((workbook / ".workbook" / "progress.json").read_text())
    assert progress["01-softmax"]["passed"] is True


def test_an_interrupted_grading_keeps_what_it_graded(workbook, tmp_path):
    cls = tmp_path / "class"
    (cls / "a-fast" / "01-softmax").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "01-softmax" / "solution.py", cls / "a-fast" / "01-softmax")
    for learner in ("b-slow", "c-slow"):
        (cls / learner / "01-softmax").mkdir(parents=True)
        (cls / learner / "01-softmax" / "solution.py").write_text(
            "def softmax(x, axis=-1):\n    while True:\n        pass\n")
    out = tmp_path / "out"
    # the endless loops are still running when the signal comes, however slow the machine
    proc = subprocess.Popen([sys.executable, "-m", "grader", "grade", str(cls), "--lessons", "01",
                             "--out", str(out), "--jobs", "1", "--case-seconds", "600"],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=workbook,
                            env={**os.environ, "WORKBOOK_ROOT": str(workbook)})
    graded = []
    while not graded and proc.poll() is None:
        time.sleep(0.1)
        if (out / "gradebook.sqlite").exists():
            with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
                try:
                    graded = db.execute("SELECT s.learner, r.score FROM results r "
                                        "JOIN submissions s ON s.id = r.submission").fetchall()
                except sqlite3.OperationalError:     # made, its tables not yet: look again
                    continue
    proc.send_signal(signal.SIGINT)
    output, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "nothing recorded so far was lost" in output
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        assert db.execute("SELECT s.learner, r.score FROM results r JOIN submissions s "
                          "ON s.id = r.submission").fetchall() == [("a-fast", 1.0)]


def test_an_answer_holding_tensors_in_a_list_does_not_stop_the_class(workbook, tmp_path):
    """`list(out)` (a list of tensors where nested lists are expected) once crashed the comparison
    and stopped a whole class; it is now a wrong answer like any other."""
    cls = tmp_path / "class"
    reference = (ROOT / "solutions" / "09-torch-attention" / "solution.py").read_text()
    for name, source in (("ann", reference),
                         ("ben", reference.replace("return out.tolist()", "return list(out)"))):
        (cls / name / "09-torch-attention").mkdir(parents=True)
        (cls / name / "09-torch-attention" / "solution.py").write_text(source)
    out = tmp_path / "out"
    done = grader(workbook, "grade", str(cls), "--lessons", "09", "--out", str(out), "--no-sandbox")
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        rows = {r["learner"]: r for r in csv.DictReader(f)}
    assert rows["ann"]["09-torch-attention"] == "1" and rows["ben"]["09-torch-attention"] == "0"
    db = sqlite3.connect(out / "gradebook.sqlite")
    messages = [m for (m,) in db.execute("SELECT c.message FROM case_results c")]
    assert any("torch tensors" in m and ".tolist()" in m for m in messages)
