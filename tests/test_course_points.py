"""Points from the course file: each lesson's points and scoring rule (all-or-nothing, fraction of
cases, per-case weights), held in the gradebook and used alike by grades.csv, feedback, Gradescope's
results and the nbgrader route; a course file that cannot be used is refused, clearly."""
import csv
import json
import sqlite3
import zipfile
from contextlib import closing

import pytest
from hypothesis import given, strategies as st

from conftest import GOOD_SOFTMAX, ROOT, grader
from grader.classroom.course import config
from grader.classroom.course.table import CourseError
from grader.judge.points import DEFAULT, Rule
from grader.lessons import roadmap
from mixed_class import MISTAKE, put

ROAD = roadmap.load(ROOT)
COURSE = """
broken_rule = 0.5
[lessons.01]
points = 10
hidden = 3
[lessons.attention]
points = 4
scoring = "all-or-nothing"
"""
CASES = st.lists(st.tuples(st.sampled_from("abcdef"), st.booleans(), st.booleans()), max_size=8,
                 unique_by=lambda c: c[0])
RULES = st.builds(Rule, st.floats(0, 100), st.sampled_from(["fraction", "all"]), st.floats(0, 5),
                  st.floats(0, 5), st.dictionaries(st.sampled_from("abc"), st.floats(0, 5)),
                  st.floats(0, 1))


@given(RULES, CASES, st.booleans())
def test_a_rule_earns_between_nothing_and_its_points(rule, cases, broken):
    got = rule.earned(cases, broken=broken)
    assert 0 <= got <= rule.points * (1 + 1e-9)
    if rule.scoring == "all":
        assert got in (0, rule.points * (rule.broken_rule if broken else 1))
    assert rule.earned(cases, error=True) == 0
    assert Rule.of_json(rule.to_json()) == rule


@given(CASES)
def test_the_default_rule_is_one_point_in_proportion_to_the_cases_passed(cases):
    passed = sum(ok for _, _, ok in cases)
    assert DEFAULT.earned(cases) == (passed / len(cases) if cases else 0)
    assert DEFAULT.earned(cases, broken=True) == 0


def test_weights_hidden_cases_and_broken_rules():
    cases = [("example 1", True, True), ("h1", False, False), ("h2", False, True)]
    assert Rule(10, hidden=3).earned(cases) == pytest.approx(10 * 4 / 7)
    assert Rule(6, weights={"example 1": 4}).earned(cases) == pytest.approx(6 * 5 / 6)
    assert Rule(2, "all").earned(cases) == 0 and Rule(2, "all").earned(cases[:1]) == 2
    assert Rule(10, broken_rule=0.5).earned(cases, broken=True) == pytest.approx(10 * 2 / 3 / 2)


def test_every_export_uses_the_course_points_and_the_gradebook_keeps_them(lesson_sources,
                                                                          tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    put(cls / "alice" / "01-softmax.py", GOOD_SOFTMAX)
    put(cls / "alice" / "02-attention.py", (ROOT / "solutions/02-attention/solution.py").read_text())
    put(cls / "bob" / "01-softmax.py", MISTAKE)
    (tmp_path / "course.toml").write_text(COURSE)       # beside the class folder: found there
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01,02", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        worth = dict(db.execute("SELECT id, points FROM lessons"))
        cases = db.execute("SELECT k.public, k.passed FROM current c JOIN case_results k ON "
                           "k.result = c.result WHERE c.learner = 'bob'").fetchall()
    assert worth == {"01-softmax": 10, "02-attention": 4}
    weight = {1: 1, 0: 3}
    bob = 10 * sum(weight[p] for p, ok in cases if ok) / sum(weight[p] for p, _ in cases)
    assert 0 < bob < 10
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        rows = {r["learner"]: r for r in csv.DictReader(f)}
    assert float(rows["bob"]["01-softmax"]) == pytest.approx(bob, rel=1e-3)
    assert (rows["alice"]["01-softmax"], rows["alice"]["02-attention"]) == ("10", "4")
    assert rows["alice"]["total"] == "14"
    results = json.loads((out / "gradescope" / "bob" / "results.json").read_text())
    lessons = {t["number"]: t for t in results["tests"] if "." not in t["number"]}
    assert (lessons["1"]["max_score"], lessons["2"]["max_score"]) == (10, 4)
    assert lessons["1"]["score"] == pytest.approx(bob, rel=1e-6)
    assert results["score"] == pytest.approx(bob, rel=1e-6)
    page = (out / "feedback" / "bob.html").read_text()
    assert f"<b>{bob:.4g}</b> of 14 points" in page and f"Points: {bob:.4g} of 10 points" in page
    assert "hidden cases weighing 3" in page
    assert f"Total: {bob:.4g} of 14 points" in (out / "feedback" / "bob.md").read_text()


def test_the_nbgrader_and_gradescope_routes_take_the_course_points(lesson_sources, tmp_path):
    (tmp_path / "course.toml").write_text(COURSE)
    done = grader(lesson_sources, "export", "nbgrader", str(tmp_path / "nb"), "--lessons", "01",
                  "--course", str(tmp_path / "course.toml"))
    assert done.returncode == 0, done.stdout + done.stderr
    nb = json.loads(next((tmp_path / "nb" / "source").rglob("01-softmax.ipynb")).read_text())
    graded = [c["metadata"]["nbgrader"] for c in nb["cells"]
              if c["metadata"].get("nbgrader", {}).get("grade")]
    assert [g["points"] for g in graded] == [10]
    from traitlets.config import Config
    from grader.classroom.nbgrader_autograde import WorkbookGrading
    from grader.lessons import lesson
    c = Config()
    c.CourseDirectory.root = str(tmp_path / "nb")
    assert WorkbookGrading(config=c).rule(lesson.load(ROAD, "01")) == Rule(10, hidden=3,
                                                                          broken_rule=0.5)
    done = grader(lesson_sources, "export", "gradescope", str(tmp_path / "ag.zip"), "--lessons",
                  "01", "--course", str(tmp_path / "course.toml"))
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(tmp_path / "ag.zip") as zf:
        rules = json.loads(zf.read("autograder.json"))["rules"]
    assert Rule.of_json(rules["01-softmax"]).points == 10


@pytest.mark.parametrize("text, words", [
    ("[lessons.01\npoints = 1", "is not valid TOML"),
    ("[lessons.nope]\npoints = 1", "There is no lesson named 'nope'"),
    ("[lessons.01]\npoint = 1", "unknown setting 'point'"),
    ("[lessons.01]\npoints = -1", "points must be a number at least 0"),
    ("[lessons.01]\nscoring = 'most'", "scoring must be one of"),
    ("broken_rule = 2", "broken_rule must be a number from 0 to 1"),
    ("[lessons.01]\nweights = { 'no such case' = 2 }", "has no case named 'no such case'"),
    ("[lessons.01]\nweights = 3", "weights must be a table"),
    ("[lessons.01]\n[lessons.01-softmax]", "given twice"),
])
def test_a_bad_course_file_is_refused_before_anything_is_graded(lesson_sources, tmp_path, text,
                                                                 words):
    cls, out = tmp_path / "class", tmp_path / "out"
    put(cls / "alice" / "01-softmax.py", GOOD_SOFTMAX)
    (tmp_path / "c.toml").write_text(text)
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--course", str(tmp_path / "c.toml"))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert words in done.stdout, done.stdout
    assert not out.exists()


VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=True)
                      | st.text(max_size=5) | st.sampled_from(["all", "fraction", "2026-03-01"]),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                          st.sampled_from(["points", "scoring", "hidden", "weights", "due",
                                           "late", "policy", "per_day", "x"]), inner, max_size=4),
                      max_leaves=10)
TOP = st.dictionaries(st.sampled_from(["lessons", "late", "timezone", "broken_rule", "x"]),
                      VALUES | st.dictionaries(st.sampled_from(["01", "02", "nope", "softmax"]),
                                               VALUES, max_size=3), max_size=4)


@given(TOP)
def test_any_course_data_gives_a_course_or_a_course_error(data):
    try:
        course = config.parse(data, ROAD, "course.toml")
    except CourseError as exc:
        assert str(exc)
    else:
        assert all(isinstance(r, Rule) for r in course.rules.values())


@given(st.text(max_size=80))
def test_any_course_text_gives_a_course_or_a_course_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("c") / "course.toml"
    path.write_text(text, encoding="utf-8")
    try:
        config.load(path, ROAD)
    except CourseError as exc:
        assert str(exc)
