"""`grader grade --preview`: grades into a scratch copy and lists exactly whose points would change,
by how much and which case or diagnosis did it, leaving the real gradebook and exports as they are."""
import shutil

import pytest
from hypothesis import given, strategies as st

from conftest import GOOD_SOFTMAX, grader
from grader.classroom.preview import changes
from grader.classroom.view import ClassView, Current, LessonInfo
from mixed_class import MISTAKE, put

FLAT = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
        "    return np.ones_like(x) / x.shape[axis]\n")
HUGE = "1000.0 + rng.normal(scale=5.0, size=(3, 6))"


def snapshot(out):
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def graded(lesson_sources, tmp_path_factory):
    """alice right, bob without the max shift, carol flat; graded on lesson 01. Tests copy it."""
    cls, out = tmp_path_factory.mktemp("cls") / "class", tmp_path_factory.mktemp("cls") / "out"
    for learner, text in (("alice", GOOD_SOFTMAX), ("bob", MISTAKE), ("carol", FLAT)):
        put(cls / learner / "01-softmax.py", text)
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    return cls, out


def preview(sources, cls, out):
    return grader(sources, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox",
                  "--jobs", "1", "--preview")


def test_preview_lists_exactly_whose_points_an_edited_case_changes(lesson_sources, graded,
                                                                  tmp_path):
    cls, out = graded[0], tmp_path / "out"
    shutil.copytree(graded[1], out)
    edited = tmp_path / "workbook"
    shutil.copytree(lesson_sources, edited)
    cases = edited / "solutions" / "01-softmax" / "hidden_cases.py"
    assert HUGE in cases.read_text()
    cases.write_text(cases.read_text().replace(HUGE, HUGE.removeprefix("1000.0 + ")))
    before = snapshot(out)
    done = preview(edited, cls, out)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [l for l in done.stdout.splitlines() if " x 01-softmax: " in l]
    assert len(lines) == 1 and lines[0].startswith("bob x 01-softmax: "), done.stdout
    assert "case 'huge logits' now passes" in lines[0] and "(+0." in lines[0]
    assert "1 learner x lesson points would change" in done.stdout
    assert snapshot(out) == before


def test_preview_of_an_unchanged_class_lists_nothing_and_writes_nothing(lesson_sources, graded,
                                                                       tmp_path):
    out = tmp_path / "out"
    shutil.copytree(graded[1], out)
    before = snapshot(out)
    done = preview(lesson_sources, graded[0], out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 learner x lesson points would change" in done.stdout
    assert " x 01-softmax: " not in done.stdout
    assert snapshot(out) == before


def test_preview_of_a_broken_gradebook_is_refused_and_leaves_it(lesson_sources, graded, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "gradebook.sqlite").write_bytes(b"not a gradebook")
    done = preview(lesson_sources, graded[0], out)
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert "is not an SQLite gradebook" in done.stdout
    assert (out / "gradebook.sqlite").read_bytes() == b"not a gradebook"


def view_of(points):
    """A ClassView of one lesson whose learners earned `points` (None: nothing graded)."""
    current = {(l, "01-x"): Current("01-x", p, p == 1, 0, 0, None, None, None, False, None, [],
                                    [], "", "x.py") for l, p in points.items() if p is not None}
    return ClassView([LessonInfo("01-x", 1, "x", [])], sorted(points), current, [])


scores = st.one_of(st.none(), st.integers(0, 8).map(lambda n: n / 8))


@given(st.dictionaries(st.sampled_from("abcdef"), st.tuples(scores, scores)))
def test_changes_are_exactly_the_learners_whose_points_differ(pairs):
    found = changes(view_of({l: a for l, (a, _) in pairs.items()}),
                    view_of({l: b for l, (_, b) in pairs.items()}))
    assert [c.learner for c in found] == sorted(l for l, (a, b) in pairs.items() if a != b)
    assert all((c.before, c.after) == pairs[c.learner] for c in found)
