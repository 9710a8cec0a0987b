"""Gradescope: every run's results.json is valid autograder output, and the exported bundle's
run_autograder grades a submission laid out as Gradescope lays it out."""
import csv
import json
import os
import shutil
import subprocess
import sys
import zipfile

import jsonschema
import pytest

from conftest import ROOT, grader
from mixed_class import MISTAKE, make_mixed_class, put
from test_class_feedback import hidden_strings

pytestmark = pytest.mark.xdist_group("gradescope")   # the bundle and the graded class made once

VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
FORMAT = {"enum": ["text", "html", "simple_format", "md", "ansi"]}
# Gradescope's autograder results format (https://gradescope-autograders.readthedocs.io,
# "Autograder Specifications"), strict: no field Gradescope does not know.
RESULTS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["score", "tests"],
    "additionalProperties": False,
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number", "minimum": 0},
        "output": {"type": "string"},
        "output_format": FORMAT,
        "test_output_format": FORMAT,
        "test_name_format": FORMAT,
        "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY,
        "extra_data": {"type": "object"},
        "leaderboard": {"type": "array"},
        "tests": {"type": "array", "items": {
            "type": "object",
            "required": ["name", "score", "max_score", "status", "output", "visibility"],
            "additionalProperties": False,
            "properties": {
                "score": {"type": "number", "minimum": 0},
                "max_score": {"type": "number", "minimum": 0},
                "status": {"enum": ["passed", "failed"]},
                "name": {"type": "string", "minLength": 1},
                "name_format": FORMAT,
                "number": {"type": "string"},
                "output": {"type": "string"},
                "output_format": FORMAT,
                "tags": {"type": "array", "items": {"type": "string"}},
                "visibility": VISIBILITY,
                "extra_data": {"type": "object"},
            }}},
    },
}


def valid(data):
    jsonschema.validate(data, RESULTS_SCHEMA, format_checker=jsonschema.FormatChecker())
    for test in data["tests"]:
        assert test["score"] <= test["max_score"]
    return data


def test_the_schema_rejects_what_gradescope_would():
    good = {"score": 1, "tests": [{"name": "a", "score": 1, "max_score": 1, "status": "passed",
                                   "output": "", "visibility": "visible"}]}
    valid(good)
    for bad in ({**good, "tests": [{**good["tests"][0], "status": "ok"}]},
                {**good, "tests": [{**good["tests"][0], "visibility": "later"}]},
                {**good, "score": "1"}, {"tests": []}):
        with pytest.raises(jsonschema.ValidationError):
            valid(bad)


@pytest.fixture(scope="module")
def mixed_graded(built_workbook, tmp_path_factory):
    """A workbook, the mixed class and its grading folder, graded once; tests rerun on copies."""
    base = tmp_path_factory.mktemp("gradescope")
    workbook = base / "workbook"
    shutil.copytree(built_workbook, workbook, symlinks=True)
    cls = make_mixed_class(base / "class", workbook)
    done = grader(workbook, "grade", str(cls), "--lessons", "01,02", "--out", str(base / "out"),
                  "--jobs", "2", "--case-seconds", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    return workbook, cls, base / "out"


@pytest.mark.parametrize("hidden", ["after_published", "hidden"])
def test_every_learner_gets_valid_results(mixed_graded, tmp_path, hidden):
    """The exports are rewritten from the gradebook on every run: a rerun on a copy of the graded
    folder, with nothing left to grade, writes them with the visibility asked for."""
    workbook, cls, graded = mixed_graded
    out = tmp_path / "out"
    shutil.copytree(graded, out)
    shutil.rmtree(out / "gradescope")
    done = grader(workbook, "grade", str(cls), "--lessons", "01,02", "--out", str(out), "--jobs",
                  "2", "--case-seconds", "1", "--hidden-cases", hidden)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Nothing to grade" in done.stdout, done.stdout
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        totals = {row["learner"]: float(row["total"]) for row in csv.DictReader(f)}
    assert len(totals) == 13
    for learner, total in totals.items():
        data = valid(json.loads((out / "gradescope" / learner / "results.json").read_text()))
        assert data["score"] == pytest.approx(total, abs=1e-4)
        lessons = [t for t in data["tests"] if t["max_score"] == 1]
        assert [t["tags"] for t in lessons] == [["01-softmax"], ["02-attention"]]
        cases = [t for t in data["tests"] if t["max_score"] == 0]
        assert {t["visibility"] for t in cases if not t["name"].split(" · ")[1].startswith(
            "example")} <= {hidden}
    alice = json.loads((out / "gradescope" / "alice" / "results.json").read_text())
    assert alice["score"] == 2 and all(t["status"] == "passed" for t in alice["tests"])


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """The autograder zip for lesson 01, built from the repository's lessons."""
    path = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    done = grader(ROOT, "export", "gradescope", "--lessons", "01", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    return path


def unpack(bundle, root):
    """The bundle in root/source as Gradescope lays it out, with submission/ and results/."""
    for part in ("source", "submission", "results"):
        (root / part).mkdir(parents=True)
    with zipfile.ZipFile(bundle) as zf:
        zf.extractall(root / "source")
        for info in zf.infolist():   # zipfile drops the executable bit
            os.chmod(root / "source" / info.filename, info.external_attr >> 16 & 0o777)


def run_autograder(bundle, tmp_path, files, env=None, metadata=None):
    """Unpack the bundle as Gradescope does, hand in `files` (with Gradescope's
    submission_metadata.json holding `metadata`), run run_autograder; its results."""
    root = tmp_path / "autograder"
    unpack(bundle, root)
    for name, text in files.items():
        put(root / "submission" / name, text.format(root=root))
    if metadata is not None:
        (root / "submission_metadata.json").write_text(json.dumps(metadata))
    env = env or {**os.environ, "AUTOGRADER_PYTHON": sys.executable}
    done = subprocess.run([str(root / "source" / "run_autograder")], capture_output=True, text=True,
                          timeout=300, env={**env, "AUTOGRADER_ROOT": str(root)})
    assert done.returncode == 0, done.stdout + done.stderr
    return valid(json.loads((root / "results" / "results.json").read_text()))


def test_the_bundle_holds_setup_and_run_autograder(bundle):
    with zipfile.ZipFile(bundle) as zf:
        names = set(zf.namelist())
        setup = zf.read("setup.sh").decode()
        config = json.loads(zf.read("autograder.json"))
        mode = zf.getinfo("run_autograder").external_attr >> 16
    assert {"setup.sh", "run_autograder", "requirements.txt", "grader/cli.py",
            "solutions/roadmap.toml", "solutions/01-softmax/hidden_cases.py"} <= names
    assert not any(n.startswith("solutions/02-") for n in names)
    assert "bubblewrap" in setup and "requirements.txt" in setup and mode & 0o111
    pinned = {l for l in (ROOT / "requirements.txt").read_text().splitlines() if "==" in l}
    with zipfile.ZipFile(bundle) as zf:
        assert set(zf.read("requirements.txt").decode().split()) <= pinned
    assert config == {"lessons": ["01-softmax"], "hidden_cases": "after_published"}


HOSTILE = """\
import os
import numpy as np

def softmax(x, axis=-1):
    for path in ("{root}/results/results.json", "/autograder/results/results.json"):
        try:
            with open(path, "w") as f:
                f.write('{{"score": 1000, "tests": []}}')
        except OSError:
            pass
    try:
        ns = {{}}
        exec(open("{root}/source/solutions/01-softmax/solution.py").read(), ns)
        return ns["softmax"](x, axis)
    except OSError:
        pass
    print("input:", repr(np.asarray(x).tolist()))
    raise ValueError(repr(np.asarray(x).tolist()))
"""


@pytest.mark.parametrize("files, score", [
    ({"solution.py": (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()}, 1),
    ({"01-softmax.py": MISTAKE}, "partial"),
    ({"01-softmax/solution.py": HOSTILE}, 0),
], ids=["correct", "wrong", "hostile"])
def test_run_autograder_grades_a_gradescope_submission(bundle, tmp_path, files, score,
                                                       softmax_lesson):
    data = run_autograder(bundle, tmp_path, files)
    if score == "partial":
        assert 0 < data["score"] < 1
        assert any("Why:" in t["output"] for t in data["tests"])
    else:
        assert data["score"] == score
    hidden = [t for t in data["tests"] if t["visibility"] == "after_published"]
    assert len(hidden) == sum(not c.public for c in softmax_lesson.cases)
    text = json.dumps(data)
    assert not [s for s in hidden_strings(softmax_lesson) if s in text]


def test_run_autograder_writes_results_even_when_nothing_can_be_graded(bundle, tmp_path):
    data = run_autograder(bundle, tmp_path, {"README.md": "I forgot my code"})
    assert data["score"] == 0
    assert "README.md" in data["output"] or "no submission" in json.dumps(data)


def test_tests_are_numbered_as_lessons_and_worth_their_points(tmp_path):
    from grader.classroom import classgrade, gradescope, view as class_view
    from grader.classroom.course.config import Course
    from grader.judge import points
    from grader.lessons import lesson as lessons_, roadmap
    from grader.classroom.gradebook import Gradebook
    lesson = lessons_.load(roadmap.load(ROOT), "03")
    put(tmp_path / "class" / "ann" / "03-causal-mask" / "solution.py",
        (ROOT / "solutions" / "03-causal-mask" / "solution.py").read_text())
    course = Course(rules={lesson.id: points.Rule(2.5)})   # the points the gradebook keeps
    classgrade.grade_class(tmp_path / "class", [lesson], tmp_path / "out", jobs=1, sandboxed=False,
                           course=course)
    book = Gradebook(tmp_path / "out" / "gradebook.sqlite")
    try:
        data = valid(gradescope.results(class_view.load(book.db), "ann"))
    finally:
        book.close()
    [test] = [t for t in data["tests"] if t["tags"] == ["03-causal-mask"] and "·" in t["name"]
              and t["name"].startswith("Lesson")]
    assert test["number"] == "3" and test["max_score"] == 2.5
    assert all(t["number"].startswith("3.") for t in data["tests"] if t is not test
               and "number" in t)
    assert "of 2.5 points" in data["output"]
