"""Each cluster of unexplained wrong answers has a short id made from its outputs (the same in every
gradebook and on every run), shown by the report and by `grader cluster LESSON`; a comment on it
(`grader comment --mistake LESSON:cluster:ID`) reaches exactly the learners whose current result
falls in it, on every export, and a learner graded later into it; bad ids are refused."""
import csv
import json
import re
import sqlite3
from contextlib import closing

import pytest
from hypothesis import given, strategies as st

from cluster_class import FILES, LATER, ROOTED, UNIFORM, copied, grade, graded_once
from conftest import grader
from grader.classroom.clusters.signature import cluster_id
from mixed_class import put

NOTE = "Every row of your softmax must depend on its own logits"
LISTED = re.compile(r"cluster:([0-9a-f]{8})  2 learners: (.*)")


@pytest.fixture(scope="module")
def graded(lesson_sources, tmp_path_factory):
    """FILES graded into a gradebook; tests copy it."""
    return graded_once(lesson_sources, tmp_path_factory)


def listed(root, out):
    done = grader(root, "cluster", "01", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    return {who: cid for cid, who in LISTED.findall(done.stdout)}, done.stdout


def test_each_cluster_has_an_id_shown_by_the_report_and_the_listing_and_kept_by_a_new_gradebook(
        lesson_sources, graded, tmp_path):
    cls, out = copied(graded, tmp_path)
    ids, text = listed(lesson_sources, out)
    assert set(ids) == {", ".join(UNIFORM), ", ".join(sorted(ROOTED))}
    assert len(set(ids.values())) == 2
    assert "1 answer unlike any other" in text and "cat/01-softmax.py" in text
    assert grader(lesson_sources, "report", "--gradebook", str(out)).returncode == 0
    page = (out / "report.html").read_text()
    shown = re.findall(r'<tr data-cluster="01-softmax" data-id="cluster:([0-9a-f]{8})">', page)
    assert shown == [ids["cat, dan"], ids["fay, fin"]]
    again = tmp_path / "again"
    grade(lesson_sources, cls, again)
    assert listed(lesson_sources, again)[0] == ids


def test_a_note_on_a_cluster_reaches_exactly_its_learners_and_one_graded_later(lesson_sources,
                                                                              graded, tmp_path):
    cls, out = copied(graded, tmp_path)
    uniform = listed(lesson_sources, out)[0]["cat, dan"]
    before = grades(out)
    done = grader(lesson_sources, "comment", "--mistake", f"01:cluster:{uniform}", NOTE,
                  "--points", "0.25", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 learners' current results carry it" in done.stdout
    put(cls / LATER[0] / "01-softmax.py", LATER[1])
    grade(lesson_sources, cls, out)
    rows = grades(out)
    moodle = tmp_path / "moodle.csv"
    assert grader(lesson_sources, "export", "moodle", str(moodle), "--gradebook",
                  str(out)).returncode == 0
    feedback = {r["Username"]: next(v for k, v in r.items() if k.endswith(" feedback"))
                for r in csv.DictReader(moodle.open(encoding="utf-8-sig"))}
    noted = {*UNIFORM, LATER[0]}
    for learner in [*FILES, LATER[0]]:
        results = json.loads((out / "gradescope" / learner / "results.json").read_text())
        found = [NOTE in (out / "feedback" / f"{learner}.html").read_text(),
                 NOTE in results["tests"][0]["output"], NOTE in rows[learner]["instructor notes"],
                 NOTE in feedback[learner]]
        assert found == [learner in noted] * 4, learner
    for learner in UNIFORM:
        assert float(rows[learner]["01-softmax"]) == pytest.approx(
            float(before[learner]["01-softmax"]) + 0.25, abs=1e-3)
    assert rows["fin"]["01-softmax"] == before["fin"]["01-softmax"]


def test_a_note_on_a_cluster_the_lesson_lacks_is_refused_with_its_cluster_ids(lesson_sources,
                                                                             graded, tmp_path):
    _, out = copied(graded, tmp_path)
    ids = listed(lesson_sources, out)[0]
    done = grader(lesson_sources, "comment", "--mistake", "01:cluster:0000abcd", NOTE, "--out",
                  str(out))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert "has no cluster 'cluster:0000abcd'" in done.stdout
    assert all(f"cluster:{i}" in done.stdout for i in ids.values())
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        assert db.execute("SELECT COUNT(*) FROM mistake_notes").fetchone()[0] == 0


def grades(out):
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        return {r["learner"]: r for r in csv.DictReader(f)}


OUTPUT = st.one_of(st.none(), st.text("0123456789abcdef", min_size=16, max_size=16))
CASES = st.lists(st.tuples(st.text(max_size=12), st.booleans(), OUTPUT), max_size=6)


@given(CASES, st.data())
def test_a_cluster_id_depends_on_the_failed_cases_outputs_only(cases, data):
    """The same outputs give the same id, whatever a passed case's output hash; another output on
    a failed case, or another case passed, gives another id."""
    rehashed = [(n, p, data.draw(OUTPUT) if p else o) for n, p, o in cases]
    assert cluster_id(rehashed) == cluster_id(cases)
    assert re.fullmatch(r"[0-9a-f]{8}", cluster_id(cases))
    if cases:
        i = data.draw(st.integers(0, len(cases) - 1))
        name, passed, output = cases[i]
        changed = (name, not passed, output) if data.draw(st.booleans()) or passed else \
            (name, passed, (output or "") + "0")
        assert cluster_id(cases[:i] + [changed] + cases[i + 1:]) != cluster_id(cases)
