"""Notebooks as submissions: `grader grade` and `grader check --file` read their answer cells."""
import json
import sqlite3

import nbformat
from hypothesis import given, settings, strategies as st

from conftest import ROOT, grader
from grader.answers import notebook_source as answer_source


def lesson_notebook(code, lesson_id="01-softmax"):
    nb = nbformat.read(ROOT / "notebooks" / f"{lesson_id}.ipynb", as_version=4)
    answer = next(c for c in nb.cells if c.source.startswith("%%answer"))
    answer.source = f"%%answer {lesson_id}\n{code}"
    return nbformat.writes(nb)


def test_a_class_of_notebooks_is_graded_and_bad_notebooks_get_a_message(workbook, tmp_path):
    cls = tmp_path / "class"
    reference = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
    for who in ("alice", "bob", "carol", "dave"):
        (cls / who).mkdir(parents=True)
    (cls / "alice" / "01-softmax.ipynb").write_text(lesson_notebook(reference))
    (cls / "bob" / "01-softmax.ipynb").write_text('{"cells": [')
    nb = json.loads(lesson_notebook(reference))
    nb["cells"] = [c for c in nb["cells"] if not "".join(c["source"]).startswith("%%answer")]
    (cls / "carol" / "01-softmax.ipynb").write_text(json.dumps(nb))
    (cls / "dave" / "01-softmax.ipynb").write_text(lesson_notebook(reference.replace(
        "shifted = x - np.max(x, axis=axis, keepdims=True)", "shifted = x")))
    out = tmp_path / "out"
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    db = sqlite3.connect(out / "gradebook.sqlite")
    rows = dict((who, (score, error)) for who, score, error in db.execute(
        "SELECT s.learner, r.score, r.error FROM results r JOIN submissions s ON s.id = r.submission"))
    assert rows["alice"] == (1.0, None)
    assert rows["bob"] == (0.0, "01-softmax.ipynb is not a notebook: it is not valid JSON")
    assert rows["carol"][0] == 0 and "has no answer cell" in rows["carol"][1]
    assert 0 < rows["dave"][0] < 1


def test_check_file_reads_a_notebook_with_the_same_verdict_as_the_file(workbook, tmp_path):
    mistake = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    e = np.exp(x)\n"
               "    return e / np.sum(e, axis=axis, keepdims=True)\n")
    (tmp_path / "mine.ipynb").write_text(lesson_notebook(mistake))
    (tmp_path / "mine.py").write_text(mistake)
    a = grader(workbook, "check", "01", "--file", str(tmp_path / "mine.ipynb"), "--json")
    b = grader(workbook, "check", "01", "--file", str(tmp_path / "mine.py"), "--json")
    assert a.returncode == b.returncode == 1
    assert json.loads(a.stdout) == json.loads(b.stdout)
    assert json.loads(a.stdout)["diagnosis"]


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode)
       | st.recursive(st.none() | st.integers() | st.text(max_size=5),
                      lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["cells", "source", "cell_type",
                                                         "metadata"]), inner, max_size=3),
                      max_leaves=12).map(lambda v: json.dumps(v).encode()))
def test_any_file_gives_source_or_a_clear_reason(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("nb") / "01-softmax.ipynb"
    path.write_bytes(data)
    try:
        source = answer_source(path)
    except ValueError as e:
        assert str(e).startswith("01-softmax.ipynb ")
    else:
        assert isinstance(source, str)
