"""The comparison says in plain words how an answer differs."""
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from grader.runner.child.wire import Tensor
from grader.judge.compare import agrees, compare

E = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])


def test_equal_within_tolerance_passes():
    assert compare(E, E + 1e-12, 1e-6, 1e-9) is None


@pytest.mark.parametrize("got, words", [
    (E.T.copy(), "expected shape (2, 3), got shape (3, 2) (the transpose"),
    (E[0], "expected shape (2, 3), got shape (3,)"),
    (E.tolist(), "expected a numpy array, got a nested list"),
    (Tensor(E), "expected a numpy array, got a torch tensor"),
    (np.where(E > 0.45, np.nan, E), "NaN at [1, 1] where 0.5 was expected (2 unexpected NaN"),
    (E.round(), "expected floating-point values, got"),
    (E.astype(np.float32) + np.float32(1e-4), "expected float64 values, got float32"),
])
def test_differences_are_named(got, words):
    if words.startswith("expected floating"):
        got = got.astype(np.int64)
    assert words in compare(E, got, 1e-6, 1e-9)


def test_largest_difference_is_located():
    got = E.copy()
    got[1, 2] += 0.5
    got[0, 0] += 0.1
    assert compare(E, got, 1e-6, 1e-9) == (
        "2 of 6 values differ; the largest difference is at [1, 2]: expected 0.6, got 1.1")


def test_lists_and_tensors():
    assert "call .tolist()" in compare(E.tolist(), Tensor(E), 1e-6, 1e-9)
    assert "ragged" in compare([[1.0, 2.0]], [[1.0], [2.0, 3.0]], 1e-6, 1e-9)
    assert compare([[1.0, 2.0]], [[1.0, 2.0]], 1e-6, 1e-9) is None


def test_tuples_name_the_value_that_differs():
    assert compare((E, 1.0), (E,), 1e-6, 1e-9) == "expected 2 values, got 1"
    assert compare((E, 1.0), (E, 2.0), 1e-6, 1e-9).startswith("in the second returned value: the value differs")


def test_expected_nan_must_be_nan():
    assert "expected NaN at [0]" in compare(np.array([np.nan, 1.0]), np.array([0.0, 1.0]), 1e-6, 1e-9)


def test_close_values_are_shown_with_enough_digits():
    message = compare(np.array([-0.0214659]), np.array([-0.021465912]), 1e-9, 1e-12)
    assert message.endswith("expected -0.0214659, got -0.021465912")


def test_a_case_that_must_raise():
    from grader.lessons.authoring import Spec, call, case
    from grader.runner.outcome import Outcome
    from grader.judge.verdict import judge

    must = case("too long", call("f", 1), raises="ValueError")
    spec = Spec(functions=("f",))
    ref = Outcome("error", error={"type": "ValueError", "message": "too long", "line": 3, "trace": []})
    assert judge(must, ref, ref, spec).passed
    other = Outcome("error", error={"type": "IndexError", "message": "index out of range",
                                    "line": 5, "trace": []})
    assert "expected a ValueError; your function raised IndexError" in judge(must, other, ref, spec).message
    returned = Outcome("ok", outputs=[E])
    assert judge(must, returned, ref, spec).message == "expected a ValueError; your function returned a value"
    stub = Outcome("error", error={"type": "NotImplementedError", "message": "", "line": 1, "trace": []})
    assert judge(must, stub, ref, spec).message == "not implemented yet"


def lenient_check(got, expected, calls):
    """A lesson's check that converts what it is given, as real checks do."""
    return None if np.allclose(np.asarray(got[0], dtype=float), expected[0]) else "differs"


@pytest.mark.parametrize("answer, words", [
    ([[str(v) for v in row] for row in E.tolist()], "holds a string at [0, 0]"),
    ([[round(v) for v in row] for row in E.tolist()], "expected floating-point values, got int64"),
    (Tensor(E), "expected a nested list, got a torch tensor"),
    ([E.tolist()[0], E.tolist()[1][:2]], "ragged"),
])
def test_a_lessons_check_sees_only_answers_of_the_right_kind(answer, words):
    from grader.lessons.authoring import Spec, call, case
    from grader.runner.outcome import Outcome
    from grader.judge.verdict import judge

    checked = case("checked", call("f", 1), check=lenient_check)
    spec = Spec(functions=("f",))
    ref = Outcome("ok", outputs=[E.tolist()])
    assert judge(checked, ref, ref, spec).passed
    verdict = judge(checked, Outcome("ok", outputs=[answer]), ref, spec)
    assert not verdict.passed and words in verdict.message


ODD = st.sampled_from([0.0, -0.0, 1.0, 1e-9, 5.0, 1e300, -1e308, 1.7e308, np.inf, -np.inf, np.nan])
VALUE = st.floats() | ODD
PAIR = (st.tuples(VALUE, st.floats(-1e-6, 1e-6)).map(lambda p: (p[0], p[0] + p[1]))
        | st.tuples(VALUE, VALUE) | st.tuples(ODD, ODD))


@settings(max_examples=400)
@given(st.lists(PAIR, min_size=1, max_size=12),
       st.sampled_from([(1e-6, 1e-8), (1e-5, 1e-8), (0.0, 0.0)]))
@example([(np.inf, -np.inf)], (1e-6, 1e-8))
@example([(np.inf, 5.0)], (1e-6, 1e-8))
@example([(1.0, np.inf)], (1e-6, 1e-8))
@example([(np.nan, np.nan), (np.inf, np.inf)], (0.0, 0.0))
def test_arrays_pass_exactly_when_numpy_calls_them_close(pairs, tolerance):
    """NaN where NaN is expected, and every other value within `atol + rtol * |expected|` (numpy's
    isclose): the quick test for the usual case, and comparing two answers without saying how they
    differ, never pass what that rule fails, nor fail what it passes."""
    with np.errstate(all="ignore"):
        expected = np.array([e for e, _ in pairs])
        got = np.array([g for _, g in pairs])
    rtol, atol = tolerance
    with np.errstate(all="ignore"):
        close = np.isclose(got, expected, rtol=rtol, atol=atol, equal_nan=True).all()
    assert (compare(expected, got, rtol, atol) is None) == bool(close)
    assert agrees(expected, got, rtol, atol) == bool(close)
    assert agrees([expected.tolist()], (got.tolist(),), rtol, atol) is False     # kinds differ
    assert agrees({"a": expected}, {"a": got}, rtol, atol) == bool(close)
