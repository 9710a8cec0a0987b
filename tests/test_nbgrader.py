"""`grader export nbgrader` through the real nbgrader, and `grader grade` on nbgrader's submissions."""
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT, grader
from grader.lessons import lesson, roadmap

BIN = Path(sys.executable).parent
LOOP = "import numpy as np\n\ndef softmax(x, axis=-1):\n    while True:\n        pass\n"
NAIVE = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    e = np.exp(x)\n"
         "    return e / np.sum(e, axis=axis, keepdims=True)\n")


def nbgrader(course, *args):
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "WORKBOOK_ROOT": str(ROOT)}
    done = subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def submit(course, learner, lesson_id, code):
    released = json.loads((course / "release" / "ps1" / f"{lesson_id}.ipynb").read_text())
    [answer] = [c for c in released["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
    answer["source"] = code
    folder = course / "submitted" / learner / "ps1"
    folder.mkdir(parents=True)
    (folder / f"{lesson_id}.ipynb").write_text(json.dumps(released))


def test_export_groups_lessons_by_chapter(tmp_path, run_grader):
    done = run_grader(ROOT, "export", "nbgrader", str(tmp_path / "course"), "--lessons", "01,02,05")
    assert done.returncode == 0, done.stderr
    source = tmp_path / "course" / "source"
    assert sorted(p.relative_to(source).as_posix() for p in source.rglob("*.ipynb")) == [
        "ch01-scores-to-weights/01-softmax.ipynb", "ch01-scores-to-weights/02-attention.ipynb",
        "ch02-activations-and-normalization/05-layer-norm.ipynb"]
    nb = nbformat.read(source / "ch01-scores-to-weights" / "02-attention.ipynb", as_version=4)
    nbformat.validate(nb)
    kinds = [c.metadata["nbgrader"] for c in nb.cells]
    assert all(k["schema_version"] == 3 for k in kinds)
    assert [k["grade_id"] for k in kinds if k["solution"]] == ["02-attention-answer"]
    tests = [(c, k) for c, k in zip(nb.cells, kinds) if k["grade"]]
    attention = lesson.load(roadmap.load(ROOT), "02")
    assert len(tests) == len(attention.cases) and all(k["points"] == 1 and k["locked"] for _, k in tests)
    hidden = [c for c, _ in tests if "### BEGIN HIDDEN TESTS" in c.source]
    assert hidden and all("### END HIDDEN TESTS" in c.source for c in hidden)
    bad = run_grader(ROOT, "export", "nbgrader", str(tmp_path / "x"), "--assignment", "../up")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.slow
def test_a_real_nbgrader_round_trip_agrees_with_grader_grade(tmp_path):
    course = tmp_path / "course"
    assert grader(ROOT, "export", "nbgrader", str(course), "--lessons", "01",
                  "--assignment", "ps1").returncode == 0
    nbgrader(course, "generate_assignment", "ps1")
    released = (course / "release" / "ps1" / "01-softmax.ipynb").read_text()
    reference = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
    body = reference.split("### BEGIN SOLUTION")[1].split("### END SOLUTION")[0]
    assert all(line.strip() not in released for line in body.splitlines() if line.strip()
               and not line.strip().startswith("#"))
    assert "HIDDEN TESTS" not in released and "raise NotImplementedError" in released
    from grader.lessons import lesson, roadmap
    hidden = [c.name for c in lesson.load(roadmap.load(ROOT), "01").cases if not c.public]
    assert hidden and not any(json.dumps(name)[1:-1] in released for name in hidden)

    submit(course, "alice", "01-softmax", reference)
    submit(course, "bob", "01-softmax", NAIVE)
    submit(course, "carol", "01-softmax", LOOP)
    nbgrader(course, "autograde", "ps1", "--create")
    nbgrader(course, "generate_feedback", "ps1")

    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        theirs = {who: gb.find_submission_notebook("01-softmax", "ps1", who) for who in
                  ("alice", "bob", "carol")}
        scores = {who: (s.score, s.max_score) for who, s in theirs.items()}
    cases = len(lesson.load(roadmap.load(ROOT), "01").cases)
    assert scores["alice"][0] == scores["alice"][1] == cases
    assert 0 < scores["bob"][0] < cases and scores["carol"][0] == 0
    feedback = (course / "feedback" / "bob" / "ps1" / "01-softmax.html").read_text()
    assert "Why: Your softmax exponentiates the logits directly" in feedback
    assert "timed out" in (course / "feedback" / "carol" / "ps1" / "01-softmax.html").read_text()

    out = tmp_path / "grading"
    done = grader(ROOT, "grade", str(course), "--lessons", "01", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        ours = {row["learner"]: float(row["01-softmax"]) for row in csv.DictReader(f)}
    assert ours == {who: pytest.approx(score / total, abs=1e-3) for who, (score, total) in scores.items()}
