"""Every way a learner's file can go wrong ends in a clear message for that file, never a crash."""
import copy
import textwrap
import time

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings, strategies as st

from conftest import FAST, ROOT
from conftest import GOOD_SOFTMAX as GOOD
from grader.lessons import lesson, roadmap
from grader.runner import run
from grader.runner.child import runner
from grader.judge.grade import grade_file
from grader.classroom.gradebook import Gradebook
from grader.classroom.jobs import case_row, grade_job
from grader.classroom import learnerfiles
from grader.classroom.submissions import Submission
from grader.judge import budget
from grader.learner.report import as_json


def grade(pool, lesson_, tmp_path, source, limits=FAST):
    path = tmp_path / "solution.py"
    path.write_text(textwrap.dedent(source))
    return grade_file(lesson_, path, pool, limits)


def messages(result):
    return {r.verdict.message for r in result.cases}


def test_a_correct_file_passes(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, GOOD)
    assert result.passed and result.score == 1.0


def test_missing_file(pool, softmax_lesson, tmp_path):
    result = grade_file(softmax_lesson, tmp_path / "nope.py", pool, FAST)
    assert "there is no file" in result.error and result.score == 0


def test_syntax_error_names_the_line(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, "import numpy as np\n\ndef softmax(x, axis=-1)\n    return x\n")
    assert result.error.startswith("SyntaxError") and result.error_line == 3


def test_misnamed_function(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, GOOD.replace("def softmax", "def soft_max"))
    assert messages(result) == {"your file has no function named `softmax`"}


def test_exception_inside_learner_code_names_the_line(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, GOOD.replace("    e = np.exp", "    1 / 0\n    e = np.exp"))
    assert messages(result) == {"raised ZeroDivisionError: division by zero (line 4)"}


def test_import_time_crash(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, "import numpy_that_does_not_exist\n" + GOOD)
    assert "could not be imported" in result.error and "ModuleNotFoundError" in result.error
    assert result.error_line == 1 and result.score == 0


def test_wrong_return_type(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, GOOD.replace("return e /", "return 'text' or e /"))
    assert any(m.startswith("expected a numpy array, got a string") for m in messages(result))


def test_unsupported_return_type(pool, softmax_lesson, tmp_path):
    source = GOOD + textwrap.dedent("""
        class Yes:
            def __eq__(self, other):
                return True
        _real = softmax
        def softmax(x, axis=-1):
            return Yes()
        """)
    result = grade(pool, softmax_lesson, tmp_path, source)
    assert all("unsupported return type" in m for m in messages(result)) and result.score == 0


def test_endless_loop_in_a_call_costs_that_case_only(pool, softmax_lesson, tmp_path):
    source = GOOD.replace("    e = np.exp", "    while x.shape == (4, 7):\n        pass\n    e = np.exp")
    result = grade(pool, softmax_lesson, tmp_path, source)
    failed = [r for r in result.cases if not r.verdict.passed]
    assert [r.case.name for r in failed] == ["random 2-D scores"]
    assert failed[0].verdict.message == "timed out: it took longer than 2 s"


def test_endless_loop_at_import(pool, softmax_lesson, tmp_path):
    limits = run.Limits(case_seconds=2, import_seconds=2, job_seconds=20)
    result = grade(pool, softmax_lesson, tmp_path, "while True:\n    pass\n" + GOOD, limits)
    assert "longer than 2 s" in result.error and result.score == 0


def test_sleeping_past_the_limit_then_answering(pool, softmax_lesson, tmp_path):
    source = "import time\n" + GOOD.replace("    e = np.exp", "    time.sleep(3)\n    e = np.exp")
    # every case sleeps past its second, however idle the machine; the job's own time is long
    # enough that only the cases' time-outs, never a slow start, decide what is run
    limits = run.Limits(case_seconds=1, import_seconds=60, job_seconds=120)
    result = grade(pool, softmax_lesson, tmp_path, source, limits)
    assert result.score == 0
    assert {r.outcome.status for r in result.cases} == {"timeout", "not-run"}


def test_a_job_stops_after_three_time_outs(pool, softmax_lesson, tmp_path):
    source = "import time\n" + GOOD.replace("    e = np.exp", "    time.sleep(60)\n    e = np.exp")
    limits = run.Limits(case_seconds=0.5, import_seconds=10, job_seconds=60)
    result = grade(pool, softmax_lesson, tmp_path, source, limits)
    statuses = [r.outcome.status for r in result.cases]
    assert statuses == ["timeout"] * 3 + ["not-run"] * (len(statuses) - 3)
    assert result.cases[-1].verdict.message == "not run: 3 earlier cases timed out"


def test_printing_megabytes_is_capped(pool, softmax_lesson, tmp_path):
    source = GOOD.replace("    e = np.exp", "    print('x' * 5_000_000)\n    e = np.exp")
    result = grade(pool, softmax_lesson, tmp_path, source)
    assert result.passed
    assert all(len(r.outcome.stdout) < 20_000 for r in result.cases)


@pytest.mark.parametrize("exit_call, shape, words", [
    ("sys.exit(0)", (4, 7), "raised SystemExit: the code tried to exit"),
    ("os._exit(0)", (4, 7), "crashed: the process exited (status 0) before it finished"),
    ("ctypes.string_at(0)", (4, 7), "crashed: the process died: a segmentation fault"),
    ("os.kill(os.getpid(), 40)", (4, 7), "crashed: the process died: signal 40"),   # no name
    ("os.write(2, b'libfoo: gave up\\n\\n') and os._exit(3)", (2, 2),        # a public case
     'crashed: the process exited (status 3) before it finished; did the code call exit()? (its '
     'last words: "libfoo: gave up")'),
    ("os.write(2, b'libfoo: gave up\\n\\n') and os._exit(3)", (4, 7),        # a hidden one
     "crashed: the process exited (status 3) before it finished; did the code call exit()?"),
])
def test_exits_and_crashes_are_per_case(pool, softmax_lesson, tmp_path, exit_call, shape, words):
    """A crash's last words (what it printed below Python) are quoted only for a public case:
    the child's raw output is closed before it gets a hidden input."""
    source = "import sys, os, ctypes\n" + GOOD.replace(
        "    e = np.exp", f"    if x.shape == {shape}:\n        {exit_call}\n    e = np.exp")
    result = grade(pool, softmax_lesson, tmp_path, source)
    failed = [r for r in result.cases if not r.verdict.passed]
    assert len(failed) == 1 and failed[0].verdict.message.startswith(words)
    assert result.passed_count == len(result.cases) - 1
    if not failed[0].case.public:       # what the process printed is not shown
        assert "libfoo" not in case_row(failed[0])["verdict"]
        assert "libfoo" not in str(as_json(result)["cases"])


def test_memory_bomb_is_stopped(pool, softmax_lesson, tmp_path):
    source = GOOD.replace("    e = np.exp", "    if x.shape == (4, 7):\n        b = bytearray(8 << 30)\n    e = np.exp")
    result = grade(pool, softmax_lesson, tmp_path, source)
    failed = [r for r in result.cases if not r.verdict.passed]
    assert [r.verdict.message for r in failed] == ["raised MemoryError (line 5)"]


def test_changing_the_input_in_place_is_reported(pool, softmax_lesson, tmp_path):
    source = GOOD.replace("    e = np.exp(x - ", "    x -= np.max(x, axis=axis, keepdims=True)\n    e = np.exp(x - 0 * ")
    result = grade(pool, softmax_lesson, tmp_path, source)
    assert any("changed its input (argument 1) in place" in m for m in messages(result))
    assert result.diagnosis and result.diagnosis[0].mistake == "in-place-shift"


def test_forged_result_frames_break_only_this_job(pool, softmax_lesson, tmp_path):
    source = "import os\n" + GOOD.replace("    e = np.exp", textwrap.indent(textwrap.dedent("""\
        for fd in range(3, 20):
            try:
                os.write(fd, b"TWB1" + b"\\xff" * 12 + b"fake")
            except OSError:
                pass
        """), "    ") + "    e = np.exp")
    result = grade(pool, softmax_lesson, tmp_path, source)
    assert "interfered with the grader's result channel" in result.error and result.score == 0


def test_json_contract(pool, softmax_lesson, tmp_path):
    data = as_json(grade(pool, softmax_lesson, tmp_path, GOOD.replace("x - np.max(x, axis=axis, keepdims=True)", "x")))
    assert set(data) == {"lesson", "passed", "score", "cases", "diagnosis", "constraints", "error",
                         "error_line"}
    assert data["lesson"] == "01-softmax" and data["passed"] is False and 0 < data["score"] < 1
    assert set(data["cases"][0]) == {"name", "public", "passed", "message"}
    assert data["diagnosis"][0]["mistake"] == "no-max-shift" and data["error"] is None


def test_two_mistakes_in_two_functions_are_both_named(pool, tmp_path):
    sigmoid_gelu = lesson.load(roadmap.load(ROOT), "04")
    result = grade(pool, sigmoid_gelu, tmp_path, """\
        import math
        import numpy as np
        def sigmoid(z):
            return 1 / (1 + np.exp(-z))
        def gelu(z):
            return 0.5 * z * (1 + np.vectorize(math.erf)(z / np.sqrt(2)))
        """)
    assert {d.mistake for d in result.diagnosis} == {"erf-gelu", "reciprocal-overflow"}


def test_a_job_whose_judging_runs_past_its_budget_is_a_verdict_stored_as_such(
        pool, softmax_lesson, tmp_path, monkeypatch):
    """The parent bounds its own work on a learner's answers: over budget, the job ends in a clear
    verdict, stored like any other (not a fault of the grader's, graded again on every run)."""
    monkeypatch.setattr(budget, "SECONDS", 0.0)
    folder = tmp_path / "ann"
    (folder / "01-softmax").mkdir(parents=True)
    path = folder / "01-softmax" / "solution.py"
    path.write_text(GOOD.replace("x - np.max(x, axis=axis, keepdims=True)", "x"))
    entry = learnerfiles.entry_at(folder, path)
    graded, _ = grade_job(Submission("ann", softmax_lesson, path, folder, entry), pool, FAST)
    row = graded.row
    assert not row["fault"] and row["score"] == 0 and row["cases"] == []
    assert "stopped judging" in row["feedback_error"]
    book = Gradebook(tmp_path / "gradebook.sqlite")
    book.add_learners(["ann"])
    book.add_lessons([softmax_lesson])
    book.record(graded, "sha", 1.0)
    assert book.up_to_date("ann", "01-softmax", "sha")      # the next run does not grade it again
    book.close()


def test_the_graders_own_work_is_not_counted_against_a_learners_budget():
    def burn(seconds):
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    with budget.judging(0.05):
        with budget.excluded():     # the reference, a known mistake: computed for the lesson
            burn(0.1)
        budget.check()
        burn(0.1)
        with pytest.raises(budget.OverBudget):
            budget.check()


def test_a_budget_counts_the_judging_thread_s_computing_not_the_clock():
    """A check reads the clock first and the thread's CPU time only once the budget could be spent:
    a judge that waits past its budget is within it, and one that computes past it is not."""
    with budget.judging(0.05):
        time.sleep(0.1)
        budget.check()
        budget.check()          # the second check after a wait, with the thread's time re-read
        end = time.thread_time() + 0.1
        while time.thread_time() < end:
            pass
        with pytest.raises(budget.OverBudget):
            budget.check()


HOSTILE = ROOT / "tests" / "hostile"


def test_a_child_whose_caps_were_lifted_is_read_to_the_parents_own_sizes(pool, softmax_lesson,
                                                                         tmp_path):
    """The learner lifts the child's caps from inside its process and raises a 5,000-digit size
    and 100,000 blanks in a matrix-product error: a plain verdict, every string cut by the parent."""
    result = grade(pool, softmax_lesson, tmp_path, (HOSTILE / "lifted_message_cap.py").read_text())
    assert result.error is None and result.score == 0
    errors = [r.outcome.error for r in result.cases]
    assert all(e and len(e["message"]) <= runner.MAX_MESSAGE + 3 for e in errors)
    assert all(len(r.outcome.stdout) <= runner.MAX_CAPTURE for r in result.cases)
    assert all(len(d.message) < 2000 for d in result.diagnosis)


def test_a_forged_frame_holding_an_impossible_array_is_this_files_verdict(pool, softmax_lesson,
                                                                          tmp_path):
    source = (HOSTILE / "forged_impossible_shape.py").read_text()
    result = grade(pool, softmax_lesson, tmp_path, source)
    assert "interfered with the grader's result channel" in result.error and result.score == 0


INPUT_VALUES = st.recursive(
    st.none() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3)
    | st.builds(np.array, st.lists(st.floats(-5, 5), min_size=1, max_size=4))
    | st.builds(lambda xs: torch.tensor(xs, dtype=torch.float64),
                st.lists(st.floats(-5, 5), min_size=1, max_size=4)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abc"), inner,
                                                                max_size=3),
    max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(INPUT_VALUES, INPUT_VALUES)
def test_comparing_an_input_with_its_snapshot_never_raises(before, after):
    """Whatever an answer leaves in an input (an array replaced by None, a list by a tensor), the
    child's check for in-place changes gives an answer, and an untouched input is the same."""
    assert runner.same(after, before) in (True, False)
    assert runner.same(before, copy.deepcopy(before))


def same_item_by_item(a, b):
    """`runner.same` on lists spelled out: item by item, the kinds alike, NaN never itself."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_item_by_item(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and bool(a == b)


NUMBER = st.floats() | st.integers(-3, 3) | st.booleans() | st.sampled_from([0.0, -0.0, 1, 1.0])
TABLES = st.recursive(st.lists(NUMBER, max_size=4) | st.lists(st.floats(), max_size=4),
                      lambda inner: st.lists(inner, max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(TABLES, TABLES)
@example([1.0, 2.0], [1, 2])
@example([[True]], [[1]])
@example([float("nan")], [float("nan")])
def test_a_table_of_numbers_is_the_same_as_its_snapshot_exactly_when_item_by_item(before, after):
    """Rows of numbers are copied and compared at once: the same answers as item by item (1 is not
    1.0, nor True; NaN is never the same as itself), and a snapshot is a copy, not the value."""
    shot = runner.snapshot(before)
    assert shot == before and shot is not before or shot != shot
    assert runner.same(after, before) == same_item_by_item(after, before)
    assert runner.same(before, shot) == same_item_by_item(before, shot)


def test_replacing_an_entry_of_an_input_dict_is_reported(pool, tmp_path):
    """Lesson 14's block takes a dict of weights: an answer that sets one entry to None changes its
    input, and is told so (the comparison of None with the weights' array once broke the child)."""
    llama = lesson.load(roadmap.load(ROOT), "14")
    source = llama.reference_source.replace(
        '    return h + swiglu_mlp(rmsnorm(h, p["norm2"])',
        '    p["Wq"] = None\n    return h + swiglu_mlp(rmsnorm(h, p["norm2"])')
    result = grade(pool, llama, tmp_path, source)
    assert result.error is None
    blocks = [r for r in result.cases if r.case.calls[0].fn == "transformer_block"]
    assert blocks and all("changed its input" in r.verdict.message for r in blocks)
