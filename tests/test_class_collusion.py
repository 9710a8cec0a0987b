"""Collusion evidence for the instructor: identical files (not the stub, not the reference) and
pairs whose different files give the same rare wrong outputs on every hidden case they fail; on a
page of its own beside the gradebook, never in anything a learner sees."""
import hashlib
import re
import shutil
import sqlite3
from contextlib import closing

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from conftest import GOOD_SOFTMAX, grader
from grader.classroom.collusion.fingerprint import output_hash
from grader.lessons.build import stub_text
from grader.runner.child.wire import Tensor
from mixed_class import put, reference

FIXED_LAST = GOOD_SOFTMAX.replace("axis=axis", "axis=-1")
UNIFORM = "import numpy as np\n\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
FLAT_ONE = UNIFORM + "    return np.full(x.shape, 1.0 / x.shape[axis])\n"
FLAT_TWO = UNIFORM + "    return np.ones_like(x) / x.shape[axis]\n"
# the same common mistake written three more ways: wrong outputs shared by five, not rare
LAST_AXIS = [FIXED_LAST.replace("np.max(x, axis=-1, keepdims=True)", "x.max(axis=-1, keepdims=True)"),
             FIXED_LAST.replace("np.max", "np.amax"),
             FIXED_LAST.replace("e / np.sum(e, axis=-1, keepdims=True)",
                                "e / e.sum(axis=-1, keepdims=True)")]


@pytest.fixture(scope="module")
def graded(lesson_sources, softmax_lesson, tmp_path_factory):
    """A class of 12 on lesson 01, graded; tests copy its output folder."""
    cls, out = tmp_path_factory.mktemp("cls") / "class", tmp_path_factory.mktemp("cls") / "out"
    files = {"ann": FIXED_LAST, "ben": FIXED_LAST, "cat": FLAT_ONE, "dan": FLAT_TWO,
             "eve": LAST_AXIS[0], "fay": LAST_AXIS[1], "gus": LAST_AXIS[2], "hal": GOOD_SOFTMAX,
             "ivy": reference("01-softmax"), "jon": reference("01-softmax"),
             "kim": stub_text(softmax_lesson), "lea": stub_text(softmax_lesson)}
    for learner, text in files.items():
        put(cls / learner / "01-softmax.py", text)
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "collusion.html (1 group of identical files, 1 pair sharing" in done.stdout
    return out


def table_rows(page, heading):
    """The data rows of the table under `heading`, each as its cells' text."""
    part = page.split(f"<h2>{heading}</h2>")[1].split("<h2>")[0]
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr><td>.*?</tr>", part)]


def test_the_page_lists_exactly_the_identical_files_and_the_rare_shared_outputs(graded):
    page = (graded / "collusion.html").read_text()
    files = table_rows(page, "Identical files")
    assert [(row[0], row[1], row[3]) for row in files] == [("01-softmax", "ann, ben",
                                                            "2 of 12 learners")]
    shared = table_rows(page, "Shared wrong outputs")
    assert [(row[0], row[1]) for row in shared] == [("01-softmax", "cat and dan")]
    assert "shared by 2 of 12 learners" in shared[0][3]


def test_no_learner_facing_file_mentions_the_evidence(graded):
    for path in [*(graded / "feedback").iterdir(), *(graded / "gradescope").rglob("*.json"),
                 graded / "grades.csv"]:
        text = path.read_text()
        assert "collusion" not in text.lower() and "identical files" not in text.lower(), path


def test_grader_report_writes_the_page_from_the_gradebook_alone(lesson_sources, graded, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(graded, out)
    (out / "collusion.html").unlink()
    done = grader(lesson_sources, "report", "--gradebook", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "collusion.html").read_text() == (graded / "collusion.html").read_text()


def test_each_case_result_keeps_a_hash_of_its_outputs(graded):
    with closing(sqlite3.connect(graded / "gradebook.sqlite")) as db:
        rows = db.execute("SELECT c.learner, k.position, k.output, k.status FROM case_results k "
                          "JOIN current c ON c.result = k.result").fetchall()
    outputs = {(learner, pos): out for learner, pos, out, _ in rows}
    assert all((out is None) == (status != "ok") for _, _, out, status in rows)
    assert {p: o for (l, p), o in outputs.items() if l == "cat"} == \
        {p: o for (l, p), o in outputs.items() if l == "dan"}
    assert {p: o for (l, p), o in outputs.items() if l == "hal"} == \
        {p: o for (l, p), o in outputs.items() if l == "ivy"}


@given(hnp.arrays(hnp.floating_dtypes() | hnp.integer_dtypes(), hnp.array_shapes(max_dims=3)))
def test_equal_outputs_hash_alike_and_a_changed_one_does_not(array):
    assert output_hash([array]) == output_hash([array.copy()])
    assert output_hash([array]) != output_hash([array.reshape(-1, 1)]) or array.ndim == 2 and \
        array.shape[1] == 1
    assert output_hash([array]) != output_hash([array.astype(np.complex128)])
    assert output_hash([array]) != output_hash((array,))
    changed = array.copy()
    flat = changed.reshape(-1)
    flat[0] = 1 if flat[0] != 1 else 2
    assert output_hash([array]) != output_hash([changed])


@given(st.data())
def test_a_tensor_changed_anywhere_hashes_apart_however_large(data):
    """A torch tensor arrives as a wire Tensor: its values are hashed whole, never the summary numpy
    prints for a large array (which elides the middle), and a tensor hashes apart from an array."""
    array = data.draw(hnp.arrays(np.float32, st.integers(1, 3000), elements=st.floats(-1, 1, width=32)))
    index = data.draw(st.integers(0, array.size - 1))
    changed = array.copy()
    changed[index] = 2.0
    assert output_hash([Tensor(array)]) == output_hash([Tensor(array.copy())])
    assert output_hash([Tensor(array)]) != output_hash([Tensor(changed)])
    assert output_hash([Tensor(array)]) != output_hash([array])


def spelled_out(value):
    """The bytes a hash is made of, item by item, as gradebooks written earlier hold them."""
    if isinstance(value, (list, tuple)):
        return (f"{type(value).__name__} {len(value)}[" + "".join(spelled_out(v) + "," for v in value)
                + "]")
    return f"{type(value).__name__} {value!r};"


NUMBERS = st.floats() | st.integers() | st.booleans()


@given(st.recursive(st.lists(NUMBERS) | st.lists(st.floats()) | st.lists(st.integers()),
                    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner),
                    max_leaves=40))
def test_a_row_of_plain_numbers_hashes_as_it_did_item_by_item(value):
    """Rows of floats, ints or bools are hashed in one go: the same bytes as one item at a time, so
    the hashes a gradebook already holds still match equal outputs graded now."""
    assert output_hash([value]) == hashlib.sha256(spelled_out([value]).encode()).hexdigest()[:16]
