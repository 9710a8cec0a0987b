"""Comparison, judging and diagnosis are total: any value the wire can decode, on either side,
ends in a verdict in plain words, never an exception (a learner's odd answer must not crash the
grader or stop a class)."""
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from grader.judge.compare import compare
from grader.judge.diagnose import diagnose
from grader.runner.outcome import Outcome
from grader.judge.verdict import judge, same_behaviour
from grader.lessons import build, roadmap
from grader.runner.child import wire

ROOT = Path(__file__).resolve().parent.parent
LESSONS = {l.id: l for l in build.lessons(roadmap.load(ROOT))}
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

arrays = hnp.arrays(st.sampled_from(sorted(wire.DTYPES)),
                    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
leaves = (st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1)
          | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=4)
          | arrays | arrays.map(wire.Tensor))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                      | st.lists(inner, max_size=3).map(tuple)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=12)


def as_sent(value):
    """The value as a child would return it: tensor markers become real torch tensors."""
    if isinstance(value, wire.Tensor):
        return torch.from_numpy(np.array(value.array))
    if isinstance(value, (list, tuple)):
        return type(value)(as_sent(v) for v in value)
    if isinstance(value, dict):
        return {k: as_sent(v) for k, v in value.items()}
    return value


def decoded(value):
    """The value as it reaches the parent: through the real wire format."""
    return wire.decode(wire.encode(as_sent(value)))


def near(expected):
    """Answers a learner might return instead of `expected`: realistic near misses."""
    arr = expected.array if isinstance(expected, wire.Tensor) else expected
    if not isinstance(arr, np.ndarray) or arr.ndim == 0:
        return st.just(expected)
    return st.sampled_from([
        arr.tolist(), [wire.Tensor(np.asarray(row)) for row in arr], list(arr), wire.Tensor(arr),
        arr.T.copy(), arr.astype(np.float32), np.full_like(arr, np.nan), arr[..., :0],
        arr.astype(np.int64) if arr.dtype.kind == "f" else arr, arr.reshape(-1), [arr.tolist()],
        (arr, arr), {"out": arr}, str(arr), None, arr.tolist()[:1] + [[]],
    ])


def outputs_of(expected, case):
    """The reference's outputs, or a None per call where the case expects the call to raise."""
    return expected.outputs if expected.status == "ok" else [None] * len(case.calls)


@SETTINGS
@given(values, values)
def test_compare_always_answers(expected, got):
    message = compare(expected, got, 1e-6, 1e-9)
    assert message is None or (isinstance(message, str) and message)


@SETTINGS
@given(values)
def test_a_value_equals_itself(value):
    value = decoded(value)
    assert compare(value, value, 0, 0) is None


@SETTINGS
@given(values, values)
def test_same_behaviour_always_answers(a, b):
    assert same_behaviour(Outcome("ok", outputs=[a]), Outcome("ok", outputs=[b]),
                          LESSONS["01-softmax"].spec) in (True, False)


@pytest.mark.parametrize("lesson_id", sorted(LESSONS))
def test_every_case_judges_any_answer(lesson_id):
    """Every case of every lesson (property checks included) judges generated and near-miss answers."""
    lesson = LESSONS[lesson_id]

    @settings(SETTINGS, max_examples=60)
    @given(st.data())
    def judge_any(data):
        index = data.draw(st.integers(0, len(lesson.cases) - 1))
        case, expected = lesson.cases[index], lesson.expected[index]
        got = [decoded(data.draw(values | near(e))) for e in outputs_of(expected, case)]
        verdict = judge(case, Outcome("ok", outputs=got), expected, lesson.spec)
        assert verdict.passed in (True, False) and isinstance(verdict.message, str)

    judge_any()


@pytest.mark.slow
@pytest.mark.parametrize("lesson_id", sorted(LESSONS))
def test_diagnosis_answers_any_outcomes(lesson_id):
    """Diagnosis compares a learner's odd outcomes with every known mistake's without failing."""
    lesson = LESSONS[lesson_id]
    lesson.prepare()

    @settings(SETTINGS, max_examples=12)
    @given(st.data())
    def diagnose_any(data):
        outcomes = [Outcome("ok", outputs=[decoded(data.draw(values | near(e)))
                                           for e in outputs_of(expected, case)])
                    for case, expected in zip(lesson.cases, lesson.expected)]
        failing = {i for i, (c, o, e) in enumerate(zip(lesson.cases, outcomes, lesson.expected))
                   if not judge(c, o, e, lesson.spec).passed}
        assert isinstance(diagnose(lesson, outcomes, failing), list)

    diagnose_any()


def test_a_list_of_tensors_is_named():
    expected = np.arange(6.0).reshape(2, 3).tolist()
    got = [wire.Tensor(np.arange(3.0)), wire.Tensor(np.arange(3.0, 6.0))]
    message = compare(expected, got, 1e-6, 1e-9)
    assert "torch tensors" in message and ".tolist()" in message
    # and as the "expected" side, which is how diagnosis compares a learner with a mistake
    assert compare(got, expected, 1e-6, 1e-9)


def test_errors_are_the_same_only_when_they_say_the_same():
    def error(kind, message):
        return Outcome("error", error={"type": kind, "message": message, "line": 3, "trace": []})

    spec = LESSONS["01-softmax"].spec
    broadcast = "operands could not be broadcast together with shapes (2,5,3) (2,3) "
    assert same_behaviour(error("ValueError", broadcast),
                          error("ValueError", broadcast.replace("(2,3)", "(4,7,1)")), spec)
    assert not same_behaviour(error("ValueError", broadcast),
                              error("ValueError", "axis 2 is out of bounds for array of dimension 2"),
                              spec)
    assert not same_behaviour(error("KeyError", "'wte'"), error("KeyError", "'wpe'"), spec)


def test_errors_the_code_raised_itself_are_the_same_whatever_their_wording():
    def raised(kind, message, line):
        return Outcome("error", error={"type": kind, "message": message, "line": 4,
                                       "trace": [f"line 4, in embed: {line}"]})

    spec = LESSONS["11-embeddings"].spec
    mine = raised("ValueError", "sequence of 9 tokens is too long", 'raise ValueError(f"too long")')
    theirs = raised("ValueError", "T + start exceeds the table", "raise ValueError(msg)")
    assert same_behaviour(mine, theirs, spec)
    assert same_behaviour(raised("AssertionError", "", "assert t <= p"),
                          raised("AssertionError", "too long", "assert t <= p, 'too long'"), spec)
    assert not same_behaviour(mine, raised("IndexError", "too long", "raise IndexError(msg)"), spec)
    library = raised("ValueError", "operands could not be broadcast", "return x + p")
    assert not same_behaviour(mine, library, spec)
