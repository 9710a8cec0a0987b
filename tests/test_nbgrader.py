"""`grader export nbgrader` through the real nbgrader, and `grader grade` on nbgrader's submissions.

One course is made, released, submitted to, autograded and given feedback once for the module (in
a copy of the folder it was exported to); the tests read it and never change it.
"""
import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from conftest import ROOT, grader
from grader.display import show
from grader.judge import points
from grader.lessons import lesson as lessons, roadmap
from grader.notebooks import nbgrader_export, workbook_examples

BIN = Path(sys.executable).parent
LESSON = "01-softmax"
REFERENCE = (ROOT / "solutions" / LESSON / "solution.py").read_text()
NAIVE = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    e = np.exp(x)\n"
         "    return e / np.sum(e, axis=axis, keepdims=True)\n")
NO_KEEPDIMS = ("import numpy as np\n\ndef softmax(x, axis=-1):\n"
               "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
               "    return e / np.sum(e, axis=axis)\n")
# Wrong answers that attack the grading: the patcher reaches for whatever grades it and for the
# gradebook, the printer prints every secret it can find a name for (the workbook's folder it reads
# from the grader's package or the mount table, other learners' notebooks, the environment).
PATCHER = """\
import builtins, sqlite3, sys
import numpy as np
for name in ("grader.notebooks.autograde", "grader.judge.verdict", "nbgrader.utils"):
    try:
        module = __import__(name, fromlist=["x"])
        for attr in ("case", "judge", "determine_grade"):
            setattr(module, attr, lambda *a, **k: (1.0, 1.0))
    except Exception as e:
        print("no", name, e)
for path in ("../../../gradebook.db", "../../gradebook.db", "gradebook.db"):
    try:
        db = sqlite3.connect(f"file:{path}?mode=rw", uri=True)
        db.execute("UPDATE grade SET auto_score = 1")
        db.commit()
    except Exception as e:
        print("no gradebook at", path, e)
builtins.AssertionError = type("Never", (Exception,), {})

def softmax(x, axis=-1):
    return x
"""
PRINTER = """\
import glob, os, sys
import numpy as np

def workbooks():
    try:
        import grader
        yield os.path.dirname(os.path.dirname(grader.__file__))
    except ImportError as e:
        print(e)
    for line in open("/proc/self/mountinfo"):
        print(line, end="")
        yield os.path.dirname(line.split()[3])
    yield os.path.dirname(sys.prefix)

def leak():
    for root in workbooks():
        for name in ("solution.py", "hidden_cases.py"):
            path = os.path.join(root, "solutions", "01-softmax", name)
            try:
                print(path, open(path).read())
            except OSError as e:
                print(path, e)
    for path in ["../../../gradebook.db", *glob.glob("../../*/*/*.ipynb"), "/proc/self/environ"]:
        try:
            print(path, open(path, errors="replace").read())
        except OSError as e:
            print(path, e)
    print(os.environ, os.getcwd(), os.listdir("/"), sys.path)

leak()

def softmax(x, axis=-1):
    leak()
    return x
"""
THREE = {"alice": REFERENCE, "bob": NAIVE, "carol": NO_KEEPDIMS}


def nbgrader(course, *args):
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "WORKBOOK_ROOT": str(ROOT)}
    done = subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def grade_id(cell):
    return cell["metadata"].get("nbgrader", {}).get("grade_id")


def submit(course, learner, code, edit=None):
    released = json.loads((course / "release" / "ps1" / f"{LESSON}.ipynb").read_text())
    [answer] = [c for c in released["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
    answer["source"] = code
    if edit:
        edit(released["cells"])
    folder = course / "submitted" / learner / "ps1"
    folder.mkdir(parents=True)
    (folder / f"{LESSON}.ipynb").write_text(json.dumps(released))


def alter_cells(cells):
    """The first example's cell and the score cell deleted, the hidden cases' cell rewritten."""
    cells[:] = [c for c in cells if grade_id(c) not in (f"{LESSON}-example-1", f"{LESSON}-score")]
    for c in cells:
        if grade_id(c) == f"{LESSON}-hidden":
            c["source"] = "print('all hidden cases pass')"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course exported to one folder, then copied and used from the copy: released, submitted
    to, autograded and given feedback by the real nbgrader, and graded by `grader grade`."""
    top = tmp_path_factory.mktemp("nbgrader")
    original, course = top / "original", top / "course"
    done = grader(ROOT, "export", "nbgrader", str(original), "--lessons", "01",
                  "--assignment", "ps1")
    assert done.returncode == 0, done.stdout + done.stderr
    shutil.copytree(original, course)
    nbgrader(course, "generate_assignment", "ps1")
    attackers = {"patcher": PATCHER, "printer": PRINTER}
    for who, code in {**THREE, **attackers}.items():
        submit(course, who, code)
    submit(course, "dora", REFERENCE, alter_cells)
    log = nbgrader(course, "autograde", "ps1", "--create")
    nbgrader(course, "generate_feedback", "ps1")
    graded = grader(ROOT, "grade", str(course), "--lessons", "01", "--out", str(top / "grading"))
    assert graded.returncode == 0, graded.stdout + graded.stderr
    return {"top": top, "original": original, "course": course, "log": log,
            "grading": top / "grading"}


def nbgrader_scores(course):
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        found = {s.student.id: s for s in gb.notebook_submissions(LESSON, "ps1")}
        return {who: (s.score, s.max_score, s.needs_manual_grade) for who, s in found.items()}


def grader_scores(grading):
    with sqlite3.connect(grading / "gradebook.sqlite") as db:
        return dict(db.execute("SELECT c.learner, r.score FROM current c JOIN results r "
                               "ON r.id = c.result"))


def page_text(path):
    """What a feedback page shows, as text (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text()))


def test_export_groups_lessons_by_chapter(tmp_path, run_grader):
    done = run_grader(ROOT, "export", "nbgrader", str(tmp_path / "course"), "--lessons", "01,02,05")
    assert done.returncode == 0, done.stderr
    source = tmp_path / "course" / "source"
    assert sorted(p.relative_to(source).as_posix() for p in source.rglob("*.ipynb")) == [
        "ch01-scores-to-weights/01-softmax.ipynb", "ch01-scores-to-weights/02-attention.ipynb",
        "ch02-activations-and-normalization/05-layer-norm.ipynb"]
    assert (source / "ch01-scores-to-weights" / "workbook_examples.py").is_file()
    nb = nbformat.read(source / "ch01-scores-to-weights" / "02-attention.ipynb", as_version=4)
    nbformat.validate(nb)
    kinds = [c.metadata["nbgrader"] for c in nb.cells]
    assert all(k["schema_version"] == 3 for k in kinds)
    assert [k["grade_id"] for k in kinds if k["solution"]] == ["02-attention-answer"]
    attention = lessons.load(roadmap.load(ROOT), "02")
    assert [(k["grade_id"], k["points"]) for k in kinds if k["grade"]] == [
        ("02-attention-score", points.most(attention))]
    assert all(k["locked"] for k in kinds if not k["solution"])
    imports_grader = re.compile(r"^\s*(import|from)\s+grader\b", re.M)
    assert not any("HIDDEN TESTS" in c.source or imports_grader.search(c.source)
                   for c in nb.cells if c.cell_type == "code")
    bad = run_grader(ROOT, "export", "nbgrader", str(tmp_path / "x"), "--assignment", "../up")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_a_copied_course_writes_into_its_own_folders(course):
    assert (course["course"] / "release" / "ps1" / f"{LESSON}.ipynb").is_file()
    assert not (course["original"] / "release").exists()
    assert not (course["original"] / "gradebook.db").exists()


def test_released_notebooks_hold_no_reference_and_check_examples_without_the_grader(course):
    folder = course["course"] / "release" / "ps1"
    released = (folder / f"{LESSON}.ipynb").read_text()
    body = REFERENCE.split("### BEGIN SOLUTION")[1].split("### END SOLUTION")[0]
    assert all(line.strip() not in released for line in body.splitlines() if line.strip()
               and not line.strip().startswith("#"))
    hidden = [c.name for c in lessons.load(roadmap.load(ROOT), "01").cases if not c.public]
    assert hidden and not any(json.dumps(name)[1:-1] in released for name in hidden)
    cells = json.loads(released)["cells"]
    blocker = ("import sys\nclass NoGrader:\n    def find_spec(self, name, *args):\n"
               "        if name.split('.')[0] == 'grader':\n"
               "            raise ModuleNotFoundError(name)\nsys.meta_path.insert(0, NoGrader())\n")

    def run(answer):
        code = [answer if c["metadata"]["nbgrader"]["solution"] else "".join(c["source"])
                for c in cells if c["cell_type"] == "code"]
        return subprocess.run([sys.executable, "-B", "-c", blocker + "\n".join(code)], cwd=folder,
                              capture_output=True, text=True, timeout=120)

    right, wrong = run(REFERENCE), run(NAIVE)
    examples = len(lessons.load(roadmap.load(ROOT), "01").prose.public_examples())
    assert right.returncode == 0, right.stderr
    assert right.stdout.count("Matches the example") == examples
    assert wrong.returncode == 1 and "ExampleMismatch" in wrong.stderr
    assert "ModuleNotFoundError" not in right.stderr + wrong.stderr


@pytest.mark.slow
def test_nbgrader_and_grader_grade_give_the_same_scores(course):
    theirs, ours = nbgrader_scores(course["course"]), grader_scores(course["grading"])
    assert set(theirs) == set(ours) == {*THREE, "patcher", "printer", "dora"}
    assert {who: score for who, (score, _, _) in theirs.items()} == ours
    assert all(most == 1.0 and not manual for _, most, manual in theirs.values())
    assert ours["alice"] == ours["dora"] == 1.0
    assert 0 < ours["carol"] < ours["bob"] < 1
    assert ours["patcher"] == ours["printer"] == 0


@pytest.mark.slow
def test_autograde_runs_no_kernel_and_warns_only_of_real_tampering(course):
    log = course["log"]
    assert "kernel" not in log.lower()
    warned = re.findall(r"Attribute '(\w+)' for cell (\S+) has changed", log)
    assert warned == [("checksum", f"{LESSON}-hidden")]      # dora's change, and nothing else


@pytest.mark.slow
def test_feedback_shows_no_secret_and_no_instructor_path(course):
    folder = course["course"]
    released = (folder / "release" / "ps1" / f"{LESSON}.ipynb").read_text()
    secret = set()
    for name in ("solution.py", "hidden_cases.py"):
        secret |= {line.strip() for line in (ROOT / "solutions" / LESSON / name).read_text()
                   .splitlines() if len(line.strip()) > 12}
    secret = {line for line in secret if json.dumps(line)[1:-1] not in released}   # the prose's
    assert len(secret) > 20
    places = [str(ROOT), str(course["top"]), sys.prefix]
    code = {**THREE, "patcher": PATCHER, "printer": PRINTER, "dora": REFERENCE}
    for who, own in code.items():
        theirs = page_text(folder / "feedback" / who / "ps1" / f"{LESSON}.html")
        ours = (course["grading"] / "feedback" / f"{who}.md").read_text()
        for shown in (theirs, ours):
            assert not [line for line in secret if line in shown and line not in own], who
            assert not [p for p in places if p in shown], who
    printer = page_text(folder / "feedback" / "printer" / "ps1" / f"{LESSON}.html")
    assert "your code printed" in printer and "/proc/self/environ" in printer
    assert "random 2-D scores" in printer


@pytest.mark.slow
def test_both_routes_show_the_same_verdicts_and_notes(course):
    folder = course["course"]
    bob = page_text(folder / "feedback" / "bob" / "ps1" / f"{LESSON}.html")
    ours = (course["grading"] / "feedback" / "bob.md").read_text()
    for line in ours.splitlines():
        if line.startswith(("- ✗", "- ✓", "    - probes", "**Why:**")):
            assert line in bob
    assert "**Why:** Your softmax exponentiates the logits directly" in bob
    page = page_text(folder / "feedback" / "dora" / "ps1" / f"{LESSON}.html")
    ours = (course["grading"] / "feedback" / "dora.md").read_text()
    [note] = [line[2:] for line in ours.splitlines() if "grader's cells" in line]
    assert note in page
    assert f"deleted: {LESSON}-example-1, {LESSON}-score; changed: {LESSON}-hidden" in note
    for who in THREE:
        untouched = page_text(folder / "feedback" / who / "ps1" / f"{LESSON}.html")
        assert "grader's cells" not in untouched
        assert "grader's cells" not in (course["grading"] / "feedback" / f"{who}.md").read_text()


def test_export_warns_when_a_stub_gives_a_lesson_released_with_it(tmp_path, run_grader):
    together = run_grader(ROOT, "export", "nbgrader", str(tmp_path / "a"), "--lessons", "01,02,03")
    assert together.returncode == 0, together.stderr
    said = " ".join(together.stdout.split())
    assert "02-attention's stub gives the code of 01-softmax" in said
    assert "03-causal-mask's stub gives the code of 01-softmax, 02-attention" in said
    road = roadmap.load(ROOT)
    chosen = [lessons.load(road, n) for n in ("01", "02", "03", "05")]
    placed, given = nbgrader_export.assignments(road, chosen, given="later")
    assert {name: [l.id for l in members] for name, members in placed.items()} == {
        "ch01-scores-to-weights": ["01-softmax"],
        "ch01-scores-to-weights-after-01": ["02-attention"],
        "ch01-scores-to-weights-after-02": ["03-causal-mask"],
        "ch02-activations-and-normalization": ["05-layer-norm"]}
    assert all(g.moved for g in given) and len(given) == 2
    _, apart = nbgrader_export.assignments(road, [chosen[1], chosen[3]])
    assert apart == []


values = st.one_of(
    hnp.arrays(np.float64, hnp.array_shapes(max_dims=3, max_side=4),
               elements=st.floats(-1e6, 1e6, allow_subnormal=False)),
    st.floats(-1e6, 1e6, allow_subnormal=False),
    st.lists(st.floats(-1e3, 1e3, allow_subnormal=False), min_size=1, max_size=4))


@settings(max_examples=200, deadline=None)
@given(values, st.floats(1e-3, 1.0))
def test_the_learner_side_check_reads_what_the_prose_prints(value, change):
    """check(v, text) passes for the text the lessons print for v, and fails for a value that
    differs from it by more than the digits shown can hide."""
    workbook_examples.check(value, show(value))
    array = np.asarray(value, dtype=float)
    moved = array + change * (1 + np.abs(array))
    off = moved if isinstance(value, np.ndarray) else (
        float(moved) if isinstance(value, float) else moved.tolist())
    with pytest.raises(workbook_examples.ExampleMismatch):
        workbook_examples.check(off, show(value))


def test_every_lesson_example_passes_its_own_check_and_a_wrong_value_fails_it():
    """What each example cell of every lesson runs, with the reference's answer and a wrong one."""
    from grader.lessons import build
    from grader.lessons.lesson import example_scope
    checked = 0
    for lsn in build.lessons(roadmap.load(ROOT)):
        for example in lsn.prose.public_examples():
            value = eval(example.source, example_scope(example, lsn.namespace()))
            workbook_examples.check(value, example.expected)
            with pytest.raises(workbook_examples.ExampleMismatch):
                workbook_examples.check(None, example.expected)
            checked += 1
    assert checked > 50
