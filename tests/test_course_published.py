"""Published points and `never_lower = true`: what left the output folder is recorded per learner x
lesson; with the option, a regrade of the same submission that scores less keeps the published
points (the feedback says so, --preview lists it as kept), a raise or a new submission counts;
without it, the regrade lowers the points as before."""
import csv
import io
import json
import shutil
import sqlite3
from contextlib import closing

import pytest
from hypothesis import given, strategies as st

from conftest import GOOD_SOFTMAX, grader
from grader.classroom.course.published import Published
from grader.classroom.preview import changes
from grader.classroom.view import ClassView, Current, LessonInfo
from mixed_class import MISTAKE, put

RANDOM = 'call("softmax", rng.normal(size=(4, 7)))'          # a case bob's softmax passes
HUGE = "1000.0 + rng.normal(scale=5.0, size=(3, 6))"         # one it fails
FLAT = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
        "    return np.ones_like(x) / x.shape[axis]\n")


@pytest.fixture(scope="module")
def graded(lesson_sources, tmp_path_factory):
    """alice right, bob without the max shift, graded on lesson 01 with never_lower (so their
    points are published); tests copy the output folder."""
    top = tmp_path_factory.mktemp("published")
    put(top / "class" / "alice" / "01-softmax.py", GOOD_SOFTMAX)
    put(top / "class" / "bob" / "01-softmax.py", MISTAKE)
    (top / "never.toml").write_text("never_lower = true\n")
    (top / "plain.toml").write_text("")
    grade(lesson_sources, top, top / "out", "never")
    return top


def grade(sources, top, out, course, *extra):
    done = grader(sources, "grade", str(top / "class"), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--jobs", "1", "--course", str(top / f"{course}.toml"), *extra)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def edited(sources, tmp_path, old, new):
    """A copy of the lesson sources with lesson 01's hidden cases edited."""
    root = tmp_path / "workbook"
    shutil.copytree(sources, root)
    cases = root / "solutions" / "01-softmax" / "hidden_cases.py"
    assert old in cases.read_text()
    cases.write_text(cases.read_text().replace(old, new))
    return root


def grades(out):
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        return {r["learner"]: r["01-softmax"] for r in csv.DictReader(f)}


def canvas(out):
    rows = list(csv.reader(io.StringIO((out / "lms" / "canvas.csv").read_text("utf-8-sig"))))
    return {r[3]: r[5] for r in rows[2:]}


def published(out, learner):
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        return [p for (p,) in db.execute("SELECT points FROM published WHERE learner = ? AND "
                                         "lesson = '01-softmax' ORDER BY id", (learner,))]


def scored(out, learner):
    """What learner's current result on lesson 01 scores (the default rule: its score)."""
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        (score,) = db.execute("SELECT r.score FROM current c JOIN results r ON r.id = c.result "
                              "WHERE c.learner = ?", (learner,)).fetchone()
    return score


@pytest.mark.parametrize("course", ["never", "plain"])
def test_a_regrade_that_would_lower_a_published_score_keeps_it_only_with_never_lower(
        lesson_sources, graded, tmp_path, course):
    out = tmp_path / "out"
    shutil.copytree(graded / "out", out)
    was, points = grades(out)["bob"], scored(out, "bob")
    assert published(out, "bob") == [points] and published(out, "alice") == [1.0]
    workbook = edited(lesson_sources, tmp_path, RANDOM, RANDOM.replace("rng.", "1000.0 + rng."))
    preview = grade(workbook, graded, out, course, "--preview")
    [line] = [l for l in preview.stdout.splitlines() if " x 01-softmax: " in l]
    assert line.startswith("bob x 01-softmax: ") and "case 'random 2-D scores' now fails" in line
    grade(workbook, graded, out, course)
    lower = scored(out, "bob")
    assert lower < points
    page = (out / "feedback" / "bob.md").read_text()
    results = json.loads((out / "gradescope" / "bob" / "results.json").read_text())
    if course == "never":
        assert f"kept at the published {was} (it would score {lower:.4g}, " in line
        assert "0 learner x lesson points would change, 1 would be kept" in preview.stdout
        assert grades(out)["bob"] == canvas(out)["bob"] == was
        assert results["score"] == pytest.approx(points) and published(out, "bob") == [points]
        assert (f"Your published score of {was} is kept; this submission scores {lower:.4g}"
                in " ".join(page.split()))
    else:
        assert f"bob x 01-softmax: {was} -> {lower:.4g} (-" in line
        assert grades(out)["bob"] == canvas(out)["bob"] == f"{lower:.4g}"
        assert results["score"] == pytest.approx(lower)
        assert published(out, "bob") == [points, lower] and "published score" not in page
    assert grades(out)["alice"] == "1" and published(out, "alice") == [1.0]


def test_with_never_lower_a_raise_and_a_new_submission_still_count(lesson_sources, graded,
                                                                   tmp_path):
    out = tmp_path / "out"
    shutil.copytree(graded / "out", out)
    shutil.copytree(graded / "class", tmp_path / "class")
    (tmp_path / "never.toml").write_text("never_lower = true\n")
    was = scored(out, "bob")
    workbook = edited(lesson_sources, tmp_path, HUGE, HUGE.removeprefix("1000.0 + "))
    grade(workbook, tmp_path, out, "never")
    raised = scored(out, "bob")
    assert raised > was and float(grades(out)["bob"]) == pytest.approx(raised, abs=1e-3)
    assert published(out, "bob") == [was, raised]
    put(tmp_path / "class" / "bob" / "01-softmax.py", FLAT)     # bob hands in something worse
    grade(workbook, tmp_path, out, "never")
    worse = scored(out, "bob")
    assert worse < raised and float(grades(out)["bob"]) == pytest.approx(worse, abs=1e-3)
    assert "published score" not in (out / "feedback" / "bob.md").read_text()


def view_of(points, published, sha="a"):
    """A one-lesson ClassView with never_lower: `points` {learner: scored, None: not graded},
    `published` {learner: points published for submission "a"}."""
    current = {(l, "01-x"): Current("01-x", p, p == 1, 0, 0, None, None, None, False, None, [],
                                    [], "", "x.py", sha256=sha)
               for l, p in points.items() if p is not None}
    return ClassView([LessonInfo("01-x", 1, "x", [], never_lower=True)], sorted(points), current,
                     [], published={(l, "01-x"): Published(p, "a", "t")
                                    for l, p in published.items()})


scores = st.one_of(st.none(), st.integers(0, 8).map(lambda n: n / 8))


@given(st.dictionaries(st.sampled_from("abcdef"), st.tuples(scores, scores, scores)),
       st.sampled_from("ab"))
def test_never_lower_keeps_exactly_the_drops_below_what_was_published_for_that_submission(
        triples, sha):
    before = view_of({l: a for l, (a, _, _) in triples.items()}, {})
    pub = {l: p for l, (_, _, p) in triples.items() if p is not None}
    after = view_of({l: b for l, (_, b, _) in triples.items()}, pub, sha)
    for l, (a, b, p) in triples.items():
        held = sha == "a" and b is not None and p is not None and b < p
        assert after.earned(l, "01-x") == (p if held else b)
        assert after.kept(l, "01-x") == (p if held else None)
    found = {c.learner: c for c in changes(before, after)}
    for l, (a, b, p) in triples.items():
        held = sha == "a" and b is not None and p is not None and b < p
        new = p if held else b
        assert (l in found) == (a != new or held and a != b)
        if l in found:
            assert (found[l].before, found[l].after) == (a, new)
            assert found[l].scores == (b if held else None)
