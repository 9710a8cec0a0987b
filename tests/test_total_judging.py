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


# ---- learner text: any message is read in one forward scan, and read the same as before ----

import copy
import re
from dataclasses import replace

from grader.judge import scan, symptoms
from grader.judge.diagnose import Diagnosis
from grader.judge.grade import CaseResult
from grader.judge.symptoms import evidence, failures, where

# The patterns error signatures were read with, kept here as the meaning the scan must keep (they
# backtrack: minutes on a crafted message of 80,000 characters, so only short texts are tried).
OLD_NUMBERS = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?", re.IGNORECASE | re.ASCII)
OLD_SHAPES = re.compile(r"[(\[]\s*#(?:\s*,\s*#)*\s*,?\s*[)\]]|#(?:x#)+", re.ASCII)
wordy = st.text(st.sampled_from("0123456789.,eE+-x#()[] \tab\n"), max_size=40)


@settings(SETTINGS, max_examples=500)
@given(wordy)
def test_an_errors_wording_is_read_as_the_patterns_read_it(text):
    old = " ".join(OLD_SHAPES.sub("#", OLD_NUMBERS.sub("#", text)).split())
    assert scan.wording(text) == old


def test_the_only_regular_expressions_that_read_learner_text_are_the_linear_two():
    """Messages, traces, printed text and sources reach the judge (and the runner's reading of a
    child's frames) at the learner's choosing: they are read by plain scans, and by the two
    patterns of grader.judge.scan, every quantifier possessive (their linearity is argued there)."""
    files = sorted((ROOT / "grader" / "judge").rglob("*.py")) + [ROOT / "grader/runner/run.py"]
    users = [str(p.relative_to(ROOT)) for p in files
             if re.search(r"^\s*(import re\b|from re import)", p.read_text(), re.M)]
    assert users == ["grader/judge/scan.py"]
    for pattern in (scan.NUMBERS.pattern, scan.SHAPES.pattern):
        bare = re.sub(r"\\.|\[[^]]*\]|\(\?:", "", pattern)      # escapes, classes, group openers
        assert re.findall(r"[*+?](?!\+)", re.sub(r"[*+?]\+", "", bare)) == []


huge_number = st.sampled_from(["9" * 5000, "1" * 19, "-" + "7" * 4400, "0" * 3000 + "5", "12"])
size = st.integers(0, 9).map(str) | huge_number
shape = st.lists(size, max_size=40).map(lambda s: "(" + ",".join(s) + ")")
READER_TEXTS = [
    "cannot reshape array of size {} into shape {}", "shape '[{}]' is invalid for input of size {}",
    "operands could not be broadcast together with shapes {} {} ",
    "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
    "operands could not be broadcast together with remapped shapes [original->remapped]: "
    "{}->(2,newaxis) {}->(3,newaxis) and requested shape (2,3)",
    "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
    "(n?,k),(k,m?)->(n?,m?) (size {} is different from {})",
    "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
    "all the input array dimensions except for the concatenation axis must match exactly, but "
    "along dimension {}, the array at index 0 has size {} and the array at index 1 has size {}",
    "Sizes of tensors must match except in dimension {}. Expected size {} but got size {}",
    "axis {} is out of bounds for array of dimension {}",
    "Dimension out of range (expected to be in range of [{}, {}], but got {})",
    "index {} is out of bounds for axis {} with size {}", "array is 0-dimensional, but {} were indexed",
    "{} encountered in {}"]


@st.composite
def learner_messages(draw):
    """Messages a learner can raise: the libraries' own wording with any numbers in it, crafted
    runs that make backtracking patterns slow, grader kinds' words, padding of any length."""
    template = draw(st.sampled_from(READER_TEXTS))
    text = template.format(*(draw(shape | size) for _ in range(template.count("{}"))))
    crafted = draw(st.sampled_from(["", "(1" + " " * 3000, "(#" + ", #" * 2000, "matmul: Input operand 0 "
                                    "has a mismatch in its core dimension 0 " * 50, "no function named `x`"]))
    pad = draw(st.sampled_from(["", "x" * 100_000]))
    return "".join(draw(st.permutations([text, crafted, pad])))


@settings(SETTINGS, max_examples=300)
@given(learner_messages(), st.sampled_from(["ValueError", "RuntimeError", "FloatingPointError",
                                            "IndexError", "MissingFunction"]), st.booleans())
def test_any_message_is_read_or_left_unread_and_quotes_no_long_number(message, kind, float_errors):
    found = failures.read({"type": kind, "message": message, "line": 3, "trace": []}, float_errors)
    assert found is None or (isinstance(found[1], str) and len(found[1]) < 2000)
    if found:
        assert not re.search(r"\d{19}", found[1])       # a reader writes out sizes, not the text
    assert isinstance(scan.wording(message), str)


# ---- every symptom and every mistake matcher, on every pairing of outcomes ----

messages = learner_messages() | st.text(max_size=20)
error_outcomes = st.builds(
    lambda kind, message, line, own: Outcome("error", error={
        "type": kind, "message": message, "line": line,
        "trace": [f"line {line}, in f: raise {kind}(msg)"] if own else []}),
    st.sampled_from(["ValueError", "TypeError", "IndexError", "AssertionError", "MissingFunction",
                     "NotImplementedError", "FloatingPointError", "ZeroDivisionError", "Odd"]),
    messages, st.integers(1, 40), st.booleans())
other_outcomes = st.sampled_from([
    Outcome("timeout", detail="it took longer than 2 s", where=["line 3, in f: while True:"]),
    Outcome("crash", detail="the process died: a segmentation fault"),
    Outcome("not-run", detail="3 earlier cases timed out"),
    Outcome("error", error={"type": "MissingFunction", "message": "no function named `f`",
                            "line": None, "trace": [], "grader": True}),
    Outcome("error", error={"type": "UnsupportedReturn", "message": "unsupported type Foo",
                            "line": None, "trace": [], "grader": True})])


def any_outcome(data, expected, case):
    """A learner's outcome on a case: answers near the expected ones or of any kind, changed
    inputs, any exception, a time-out, a crash, a case not run."""
    pick = data.draw(st.sampled_from(["ok", "ok", "mutated", "error", "other"]))
    if pick in ("ok", "mutated"):
        outputs = [decoded(data.draw(values | near(e))) for e in outputs_of(expected, case)]
        return Outcome("ok", outputs=outputs, mutated=["argument 1"] if pick == "mutated" else [])
    return data.draw(error_outcomes if pick == "error" else other_outcomes)


def with_raising_cases(lesson, flips):
    """The lesson with some of its cases made to expect a ValueError (the reference's outcome an
    exception there), so every lesson has cases where a value meets an expected exception."""
    other = copy.copy(lesson)
    other.__dict__.update(variant_outcomes={})
    error = Outcome("error", error={"type": "ValueError", "message": "bad", "line": 5, "trace": []})
    other.__dict__["cases"] = [replace(c, raises="ValueError") if f else c
                               for c, f in zip(lesson.cases, flips)]
    other.__dict__["expected"] = [error if f else e for e, f in zip(lesson.expected, flips)]
    return other


@pytest.mark.slow
@pytest.mark.parametrize("lesson_id", sorted(LESSONS))
def test_every_symptom_and_mistake_accepts_every_pairing_of_outcomes(lesson_id):
    """Symptoms and known mistakes are read for any learner outcome beside any expected one: a
    value, an exception, a time-out, a crash or a case not run against an expected value or an
    expected exception (lesson 11 once failed here on a value where ValueError was expected)."""
    base = LESSONS[lesson_id]
    base.prepare()

    @settings(SETTINGS, max_examples=8)
    @given(st.data())
    def explain_any(data):
        flips = data.draw(st.lists(st.booleans(), min_size=len(base.cases),
                                   max_size=len(base.cases)) | st.just([False] * len(base.cases)))
        lesson = with_raising_cases(base, flips)
        outcomes = [any_outcome(data, e, c) for c, e in zip(lesson.cases, lesson.expected)]
        results = [CaseResult(c, judge(c, o, e, lesson.spec), o, e, i)
                   for i, (c, o, e) in enumerate(zip(lesson.cases, outcomes, lesson.expected))]
        failing = {r.index for r in results if not r.verdict.passed}
        known = diagnose(lesson, outcomes, failing)
        found = symptoms.explain(lesson, results, failing, set().union(*(d.cases for d in known)),
                                 lesson.reference_source)
        assert all(isinstance(d, Diagnosis) and isinstance(d.message, str) for d in known + found)
        assert all(d.cases <= failing for d in found)

    explain_any()


@SETTINGS
@given(st.data())
def test_two_outcomes_of_any_kinds_are_compared(data):
    """Whether a learner behaves as a mistake does, for any two outcomes on either side."""
    case, expected = LESSONS["11-embeddings"].cases[0], LESSONS["11-embeddings"].expected[0]
    a, b = any_outcome(data, expected, case), any_outcome(data, expected, case)
    assert same_behaviour(a, b, LESSONS["11-embeddings"].spec) in (True, False)


@settings(SETTINGS, max_examples=500)
@given(st.text(st.sampled_from("ab` .;\n\t"), max_size=40))
def test_the_plain_scans_read_as_the_patterns_they_replace(text):
    """Code spans and first sentences are found by scans, as the patterns once found them."""
    assert evidence.code_spans(text) == re.findall(r"`([^`]+)`", text)
    end = re.search(r"[.;](\s|$)", text)
    assert where.first_sentence(text) == (text[:end.start() + 1] if end else text)
