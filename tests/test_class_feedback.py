"""Feedback for every learner: what it shows, what it never shows (hidden inputs), and a class that
goes on when the grader itself fails on one job."""
import json
import sqlite3
from contextlib import closing

import numpy as np

from conftest import ROOT, grader
from mixed_class import LEAKY, MISTAKE, put
from grader.classroom import classgrade, jobs
from grader.lessons import lesson as lessons_, roadmap

SCAVENGER = """\
import gc
import numpy as np

def arrays(value, depth=0):
    if isinstance(value, np.ndarray):
        yield value
    elif depth < 6 and isinstance(value, (list, tuple, dict)):
        for item in (value.values() if isinstance(value, dict) else value):
            yield from arrays(item, depth + 1)

def softmax(x, axis=-1):
    for obj in gc.get_objects():   # every input the process holds, printed in a public case
        if isinstance(obj, dict) and "cases" in obj:
            for a in arrays(obj["cases"]):
                print("found", a.ravel()[:8].tolist())
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""
FORBIDDEN = """\
import torch

def attention(Q, K, V, mask=None):
    return torch.nn.functional.scaled_dot_product_attention(Q, K, V)
"""


def hidden_strings(lesson):
    """Text forms of the hidden cases' input values that could not appear by chance."""
    found = set()
    for case in lesson.cases:
        if case.public:
            continue
        for call in case.calls:
            for arg in call.args:
                for v in np.asarray(arg, dtype=float).ravel()[:50]:
                    if np.isfinite(v) and len(f"{abs(v):.6g}") >= 7:
                        found |= {f"{v:.6g}", repr(float(v))[:12], f"{v:.4f}"}
    return found


def exported(out, learner):
    return {"feedback page": (out / "feedback" / f"{learner}.html").read_text(),
            "feedback text": (out / "feedback" / f"{learner}.md").read_text(),
            "results.json": (out / "gradescope" / learner / "results.json").read_text(),
            "grades.csv": (out / "grades.csv").read_text("utf-8-sig")}


def test_hidden_inputs_never_reach_feedback_results_or_the_csv(workbook, tmp_path, softmax_lesson):
    cls = tmp_path / "class"
    put(cls / "mallory" / "01-softmax" / "solution.py", LEAKY)      # prints, raises and returns them
    put(cls / "walker" / "01-softmax" / "solution.py", SCAVENGER)   # looks for them in its memory
    put(cls / "alice" / "01-softmax" / "solution.py",
        (ROOT / "solutions" / "01-softmax" / "solution.py").read_text())
    out = tmp_path / "out"
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    secrets = hidden_strings(softmax_lesson)
    assert len(secrets) > 100
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        seen = " ".join(m for (m,) in db.execute("SELECT message FROM case_results WHERE public = 0"))
    assert any(s in seen for s in secrets), "the submission did not get its hidden inputs out"
    for learner in ("mallory", "walker"):
        shown = exported(out, learner)
        shown["grader feedback"] = grader(workbook, "feedback", learner, "--out", str(out)).stdout
        for where, text in shown.items():
            leaked = sorted(s for s in secrets if s in text)
            assert not leaked, f"hidden inputs in {learner}'s {where}: {leaked[:5]}"
    assert "found [" in exported(out, "walker")["feedback page"]
    page = exported(out, "mallory")["feedback page"]
    assert "your function raised an exception (ValueError)" in page
    assert "your answer&#x27;s values differ from the expected ones" in page
    assert "probes: a (4, 7) array of real-valued logits" in page
    assert "my input is [1.0, 2.0, 3.0]" in page      # a public example may show what it printed


def test_feedback_shows_scores_cases_diagnoses_rules_and_the_hint_to_read(workbook, tmp_path):
    cls = tmp_path / "class"
    put(cls / "carol" / "01-softmax.py", MISTAKE)
    put(cls / "carol" / "02-attention" / "solution.py", FORBIDDEN)
    put(cls / "carol" / "notes.txt", "my notes")
    out = tmp_path / "out"
    done = grader(workbook, "grade", str(cls), "--lessons", "01,02", "--out", str(out),
                  "--no-sandbox")
    assert done.returncode == 0, done.stdout
    page = (out / "feedback" / "carol.html").read_text()
    text = (out / "feedback" / "carol.md").read_text()
    softmax = lessons_.load(roadmap.load(ROOT), "01")
    cases = len(softmax.cases)    # carol made the no-max-shift mistake: she passes what it passes
    passed = cases - next(len(fails) for m, _, fails in softmax.mistake_table
                          if m.id == "no-max-shift")
    for words in ["Lesson 01 · A stable softmax", f"{passed}/{cases} cases passed", "✗ example 2",
                  "input: softmax(np.array([1000.0, 1001.0, 1002.0]))", "Why:",
                  "Subtract each slice", "Stuck? Read hint 1 (Where to start)",
                  "rule broken: `torch.nn.functional.scaled_dot_product_attention` (line 4) is not "
                  "allowed here", "rule broken: `torch` (line 1) is not allowed here",
                  "notes.txt", "not a submission: only .py, .ipynb files are graded"]:
        assert words in page.replace("&#x27;", "'").replace("&quot;", '"') or words in text, words
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")
    terminal = grader(workbook, "feedback", "carol", "--out", str(out))
    assert terminal.returncode == 0 and f"{passed}/{cases} cases passed" in terminal.stdout
    assert "Subtract each slice" in terminal.stdout
    nobody = grader(workbook, "feedback", "zoe", "--out", str(out))
    assert nobody.returncode == 2 and "there is no learner 'zoe'" in nobody.stdout


def test_a_fault_in_the_grader_costs_one_job_and_the_class_is_graded_and_exported(
        workbook, tmp_path, monkeypatch):
    cls = tmp_path / "class"
    soft = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
    for learner in ("alice", "bob", "carol"):
        put(cls / learner / "01-softmax" / "solution.py", soft)
    real = jobs.grade_file

    def faulty(lesson, path, *args, **kwargs):
        if "bob" in path.parts:
            raise KeyError("a judge that fails on bob's answers [[0.25, 0.75]]")
        return real(lesson, path, *args, **kwargs)

    monkeypatch.setattr(jobs, "grade_file", faulty)
    road = roadmap.load(workbook)
    lesson = lessons_.load(road, "01")
    out = tmp_path / "out"
    done = classgrade.grade_class(cls, [lesson], out, jobs=2, sandboxed=False)
    assert [g.learner for g in done.faults] == ["bob"]
    assert sorted(g.learner for g in done.graded) == ["alice", "bob", "carol"]
    assert (out / "grades.csv").read_text("utf-8-sig").splitlines() == [
        "learner,01-softmax,total", "alice,1,1", "bob,,0", "carol,1,1"]
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        (error, fault), = db.execute("SELECT error, fault FROM results r JOIN submissions s "
                                     "ON s.id = r.submission WHERE s.learner = 'bob'")
    assert fault == 1 and error.startswith("the grader could not grade this file: KeyError")
    page = (out / "feedback" / "bob.html").read_text()
    assert "the grader could not grade this file (an error inside the grader, KeyError)" in page
    assert "0.25" not in page
    results = json.loads((out / "gradescope" / "bob" / "results.json").read_text())
    assert results["score"] == 0
    from grader.classroom.summary import summary
    lines, code = summary(done, [lesson], out, False)
    assert code == 1 and any("bob x 01-softmax: the grader could not grade this file" in l
                             for l in lines)
    monkeypatch.setattr(jobs, "grade_file", real)
    again = classgrade.grade_class(cls, [lesson], out, jobs=1, sandboxed=False)
    assert [g.learner for g in again.graded] == ["bob"] and not again.faults   # faults are retried
