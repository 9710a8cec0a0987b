"""Symptoms explain wrong answers that no known mistake describes, with evidence that holds on
every failing case they speak for, and never speak for a right answer."""
from pathlib import Path

import pytest

from grader.judge.grade import grade_file
from grader.lessons import lesson, regions, roadmap
from grader.runner import run

ROOT = Path(__file__).resolve().parent.parent
ROAD = roadmap.load(ROOT)


def grade(tmp_path, pool, lesson_id, source, limits=None):
    path = tmp_path / "solution.py"
    path.write_text(source)
    return grade_file(lesson.load(ROAD, lesson_id), path, pool, limits)


def symptoms_of(result):
    return [d for d in result.diagnosis if d.mistake.startswith("symptom:")]


SOFTMAX_HEAD = "import numpy as np\n\n\ndef softmax(x, axis=-1):\n"
LAYER_NORM_HEAD = "import numpy as np\n\n\ndef layer_norm(x, gamma, beta, eps=1e-5):\n"
LAYER_NORM_BODY = ("    mu = np.mean(x, axis=-1, keepdims=True)\n"
                   "    var = np.mean((x - mu) ** 2, axis=-1, keepdims=True)\n")


@pytest.mark.parametrize("lesson_id, source, symptom, words", [
    ("05", LAYER_NORM_HEAD + "    x, gamma, beta = (a.astype(np.float32) for a in (x, gamma, beta))\n"
     + LAYER_NORM_BODY
     + "    return (x - mu) / np.sqrt(var + eps) * gamma + beta\n",
     "symptom:float32", "float32"),
    ("05", LAYER_NORM_HEAD + LAYER_NORM_BODY + "    return -((x - mu) / np.sqrt(var + eps) * gamma + beta)\n",
     "symptom:factor", "times -1"),
    ("05", LAYER_NORM_HEAD + LAYER_NORM_BODY
     + "    return ((x - mu) / np.sqrt(var + eps) * gamma + beta)[..., None, :]\n",
     "symptom:extra-axis", "axis of size 1"),
    ("05", LAYER_NORM_HEAD + LAYER_NORM_BODY + "    x -= mu\n"
     "    return x / np.sqrt(var + eps) * gamma + beta\n",
     "symptom:in-place", "in place"),
    ("01", SOFTMAX_HEAD + "    m = np.max(x, axis=axis, keepdims=True)\n"
     "    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))\n",
     "symptom:log", "logarithm"),
    ("01", SOFTMAX_HEAD + "    e = np.exp(x - np.max(x, axis=axis))\n"
     "    return e / np.sum(e, axis=axis, keepdims=True)\n",
     "symptom:broadcast", "keepdims=True"),
])
def test_a_symptom_names_what_the_answers_share(tmp_path, pool, lesson_id, source, symptom, words):
    result = grade(tmp_path, pool, lesson_id, source)
    assert not result.passed
    found = symptoms_of(result)
    assert [d.mistake for d in found] == [symptom] and words in found[0].message
    assert found[0].label == "Likely cause"
    assert found[0].cases <= {i for i, r in enumerate(result.cases) if not r.verdict.passed}


def test_a_transposed_answer_is_named(tmp_path, pool):
    source = (lesson.load(ROAD, "02").reference_source
              .replace("    return weights @ v\n", "    return np.swapaxes(weights @ v, -1, -2)\n"))
    result = grade(tmp_path, pool, "02", source)
    assert [d.mistake for d in symptoms_of(result)] == ["symptom:transposed"]


def test_the_wrong_half_of_a_block_is_located(tmp_path, pool):
    source = lesson.load(ROAD, "14").reference_source.replace(
        'h = x + mha_forward(', 'h = x + 2 * mha_forward(')
    result = grade(tmp_path, pool, "14", source)
    part = [d for d in symptoms_of(result) if d.mistake == "symptom:part"]
    assert part and "the difference is in the attention sub-layer" in part[0].message
    assert "the MLP sub-layer alone passes" in part[0].message


@pytest.mark.parametrize("lesson_id", ["01", "05", "10", "14"])
def test_right_answers_and_stubs_get_no_symptom(tmp_path, pool, lesson_id):
    reference = lesson.load(ROAD, lesson_id)
    assert grade(tmp_path, pool, lesson_id, reference.reference_source).diagnosis == []
    stub = grade(tmp_path, pool, lesson_id, regions.stub(reference.reference_source))
    assert symptoms_of(stub) == []


def test_time_outs_get_no_symptom(tmp_path, pool):
    result = grade(tmp_path, pool, "01", SOFTMAX_HEAD + "    while True:\n        pass\n",
                   run.Limits(case_seconds=0.5))     # an endless loop times out at any limit
    assert {r.outcome.status for r in result.cases} == {"timeout", "not-run"}
    assert symptoms_of(result) == []


# ---- symptoms on answers made from the reference's own outputs ----
# A wrong answer of a known shape (transposed, scaled, clipped, ...) is made by changing the
# reference's outputs; each symptom must name it in at least two lessons and stay silent on a near
# miss (the same change plus a difference that breaks the relation).

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from grader.judge import symptoms
from grader.judge.symptoms import failures
from grader.judge.diagnose import diagnose, distinct
from grader.judge.grade import CaseResult
from grader.runner.outcome import Outcome
from grader.judge.verdict import judge
from grader.runner.child.wire import Tensor

LESSONS = {}


def load(lesson_id):
    if lesson_id not in LESSONS:
        LESSONS[lesson_id] = lesson.load(ROAD, lesson_id)
    return LESSONS[lesson_id]


def map_floats(value, f):
    """The value with f applied to every floating-point array (or tensor) inside it."""
    if isinstance(value, Tensor):
        return Tensor(map_floats(value.array, f))
    if isinstance(value, np.ndarray):
        return f(value) if value.dtype.kind == "f" and value.ndim else value
    if isinstance(value, tuple):
        return tuple(map_floats(v, f) for v in value)
    if isinstance(value, dict):
        return {k: map_floats(v, f) for k, v in value.items()}
    if isinstance(value, list) and value and all(isinstance(v, float) for v in value):
        return list(f(np.array(value)).tolist())
    return value


def diagnosis_of(lesson_id, answer):
    """The diagnosis of the outcomes answer(index, case, expected outcome) gives, as grading
    would make it (known mistakes first, then symptoms), with the indices of the failing cases."""
    les = load(lesson_id)
    outcomes = [answer(i, c, e) for i, (c, e) in enumerate(zip(les.cases, les.expected))]
    results = [CaseResult(c, judge(c, o, e, les.spec), o, e, i)
               for i, (c, o, e) in enumerate(zip(les.cases, outcomes, les.expected))]
    failing = {i for i, r in enumerate(results) if not r.verdict.passed}
    known = distinct(diagnose(les, outcomes, failing))
    explained = set().union(*(d.cases for d in known))
    return known + symptoms.explain(les, results, failing, explained), failing


def changed(f, which=lambda i, case: True):
    """An answer: the reference's outputs, with f applied to the float arrays of chosen cases."""
    def answer(i, case, expected):
        if not which(i, case) or expected.status != "ok":
            return expected
        return Outcome("ok", outputs=[map_floats(o, f) for o in expected.outputs])
    return answer


def names(diagnoses):
    return [d.mistake for d in diagnoses if d.mistake.startswith("symptom:")]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lesson_id=st.sampled_from([f"{n:02d}" for n in range(1, 23)]),
       size=st.floats(1e-14, 1e-11), seed=st.integers(0, 2 ** 16))
def test_right_answers_computed_differently_get_no_diagnosis(lesson_id, size, seed):
    """The reference's outputs with noise far below the tolerance (a sum in another order, another
    formula) pass, and nothing is diagnosed."""
    rng = np.random.default_rng(seed)
    noisy = changed(lambda a: a * (1 + size * rng.standard_normal(a.shape)))
    found, failing = diagnosis_of(lesson_id, noisy)
    assert failing == set() and found == []


@pytest.mark.parametrize("lesson_id", [f"{n:02d}" for n in range(1, 23)])
def test_the_reference_and_the_right_corpus_get_no_diagnosis(tmp_path, pool, lesson_id):
    les = load(lesson_id)
    assert grade(tmp_path, pool, lesson_id, les.reference_source).diagnosis == []
    for path in sorted((ROOT / "tests" / "learners" / lesson_id).glob("right_*.py")):
        result = grade(tmp_path, pool, lesson_id, path.read_text())
        assert result.passed and result.diagnosis == [], path.name


def rows_scaled(a):
    return a * (1.5 + np.arange(int(np.prod(a.shape[:-1])), dtype=float).reshape(a.shape[:-1] + (1,)))


def columns_scaled(a):
    return a * (1.5 + np.arange(a.shape[-1], dtype=float))


def columns_affine(a):
    return a * (1.5 + np.arange(a.shape[-1], dtype=float)) + (0.25 - np.arange(a.shape[-1]))


def clip_middle(a):
    lo, hi = np.quantile(a, [0.2, 0.8])
    return np.clip(a, lo, hi)


def first_row_zero(a):
    out = a.copy()
    out.reshape(-1, a.shape[-1])[0] = 0.0
    return out


def later_items_off(a):
    out = a.copy()
    if a.ndim >= 3:
        out[1:] += 0.5
    return out


def nudge(a):
    """A near miss: one entry moved by a little more than the tolerance allows."""
    out = a.copy()
    out.flat[0] += 1e-3 * (1 + abs(out.flat[0]))
    return out


def two_d(i, case):
    return all(np.ndim(a) == 2 for a in case.calls[0].args[:1])


def has_rows(i, case):
    x = case.calls[0].args[0]
    return isinstance(x, np.ndarray) and x.ndim >= 2 and np.prod(x.shape[:-1]) >= 3


def batched(i, case):
    x = case.calls[0].args[0]
    return isinstance(x, np.ndarray) and x.ndim >= 3 and x.shape[0] >= 2


# (symptom, words in its message, the change, which cases it is applied to, lessons)
GENERATED = [
    ("symptom:transposed", "another order", lambda a: np.swapaxes(a, -1, -2), two_d, ("05", "06")),
    ("symptom:reshaped", "another shape", lambda a: a.reshape(a.shape[:-1] + (1, a.shape[-1]))
     .reshape(-1), two_d, ("01", "05")),
    ("symptom:rearranged", "arranged", lambda a: a.ravel()[::-1].reshape(a.shape), two_d, ("05", "06")),
    ("symptom:factor", "sqrt(8)", lambda a: a * np.sqrt(8), lambda i, c: True, ("04", "05")),
    ("symptom:row-factor", "row", rows_scaled, has_rows, ("05", "06")),
    ("symptom:column-factor", "column", columns_scaled, has_rows, ("05", "06")),
    ("symptom:column-affine", "scaled and shifted", columns_affine, has_rows, ("05", "06")),
    ("symptom:clipped", "clips", clip_middle, has_rows, ("05", "06")),
    ("symptom:zeroed", "exactly 0", first_row_zero, has_rows, ("05", "06")),
    ("symptom:float32", "float32", lambda a: a.astype(np.float32), lambda i, c: True, ("01", "05")),
    ("symptom:first-item-only", "first item", later_items_off, batched, ("05", "06")),
]


@pytest.mark.parametrize("name, words, change, which, lessons", GENERATED,
                         ids=[g[0] for g in GENERATED])
def test_a_generated_answer_of_a_class_gets_its_symptom(name, words, change, which, lessons):
    for lesson_id in lessons:
        found, failing = diagnosis_of(lesson_id, changed(change, which))
        assert failing, lesson_id
        shown = [d for d in found if d.mistake == name]
        assert shown and words in shown[0].message, (lesson_id, names(found))
        assert shown[0].cases <= failing and shown[0].label == "Likely cause"
        near, _ = diagnosis_of(lesson_id, changed(lambda a: nudge(change(a)), which))
        assert name not in names(near), (lesson_id, names(near))


@pytest.mark.parametrize("lesson_id", ["18", "21"])
def test_values_wrong_only_where_they_should_be_zero(lesson_id):
    def nonzero_zeros(a):
        return np.where(a == 0, 0.125, a)
    found, failing = diagnosis_of(lesson_id, changed(nonzero_zeros))
    zeros = [d for d in found if d.mistake == "symptom:zeros-wrong"]
    assert failing and zeros and zeros[0].cases <= failing
    near, _ = diagnosis_of(lesson_id, changed(lambda a: nudge(nonzero_zeros(a))))
    assert "symptom:zeros-wrong" not in names(near)


def test_the_wrong_function_is_named():
    for lesson_id, fn in (("04", "gelu"), ("14", "swiglu_mlp")):
        found, failing = diagnosis_of(lesson_id, changed(
            lambda a: a + 1.0, lambda i, c: {x.fn for x in c.calls} == {fn}))
        where = [d for d in found if d.mistake == "symptom:function"]
        assert where and f"The mistake is in {fn}" in where[0].message
        les = load(lesson_id)
        other = [f for f in les.spec.functions if f != fn][0]
        near, _ = diagnosis_of(lesson_id, changed(
            lambda a: a + 1.0, lambda i, c: {x.fn for x in c.calls} & {fn, other}))
        assert "symptom:function" not in names(near)


def test_a_function_left_as_the_stub_is_named():
    for lesson_id, fn in (("04", "gelu"), ("07", "merge_heads")):
        def answer(i, case, expected):
            if any(c.fn == fn for c in case.calls):
                return Outcome("error", error={"type": "NotImplementedError", "message": "",
                                               "line": 3, "trace": []})
            return expected
        found, _ = diagnosis_of(lesson_id, answer)
        assert [d.mistake for d in found] == ["symptom:unfinished"] and fn in found[0].message


@pytest.mark.parametrize("lesson_id, param", [("15", "theta"), ("21", "ignore_index")])
def test_failures_confined_to_a_parameter_name_it(lesson_id, param):
    les = load(lesson_id)
    from grader.judge.symptoms import traits
    sets = {i for i, c in enumerate(les.cases)
            if any(t[0] == "sets" and t[2] == param
                   for t in traits.param_traits(c, les.reference_source))}
    assert 2 <= len(sets) < len(les.cases)
    def off(a):
        return a + 0.1 * np.sin(3 * a) + 0.05
    found, failing = diagnosis_of(lesson_id, changed(off, lambda i, c: i in sets))
    assert failing == sets
    assert f"symptom:only-sets-{param}" in names(found)
    extra = min(set(range(len(les.cases))) - sets)
    near, _ = diagnosis_of(lesson_id, changed(off, lambda i, c: i in sets | {extra}))
    assert f"symptom:only-sets-{param}" not in names(near)


def test_failures_on_several_rows_only_are_named_where_rows_are_independent():
    for lesson_id in ("05", "06"):
        multi = lambda i, c: has_rows(i, c) or (    # noqa: E731
            np.ndim(c.calls[0].args[0]) >= 2 and np.prod(np.shape(c.calls[0].args[0])[:-1]) > 1)
        found, _ = diagnosis_of(lesson_id, changed(lambda a: a + np.sin(a), multi))
        assert "symptom:only-rows" in names(found)
    # in causal attention the rows see each other: one row right says nothing about the others
    found, _ = diagnosis_of("10", changed(lambda a: a + np.sin(a), lambda i, c: np.shape(
        c.calls[0].args[0])[-2] > 1))
    assert "symptom:only-rows" not in names(found)


def error_of(action):
    try:
        action()
    except Exception as e:  # the library's own words
        return {"type": type(e).__name__, "message": str(e), "line": 7, "trace": []}
    raise AssertionError("no error")


@pytest.mark.parametrize("name, action, words", [
    ("broadcast", lambda: np.ones((4, 7)) - np.ones(4), "keepdims=True"),
    ("broadcast", lambda: np.ones((2, 3, 5, 5)) + np.ones((2, 2)), "wrong axis"),
    ("matmul-batch", lambda: np.ones((6, 5, 2)) @ np.ones((4, 2, 5)), "heads"),
    ("matmul", lambda: np.ones((3, 4)) @ np.ones((5, 4)), "inner sizes"),
    ("concatenate", lambda: np.concatenate([np.ones((2, 5, 4)), np.ones((2, 3, 4))], axis=-1),
     "axis 1"),
    ("reshape", lambda: np.ones(60).reshape(2, 5, 3, 3), "heads"),
    ("index", lambda: np.ones(6)[11], "argmax"),
    ("zero-dim", lambda: np.asarray(None)[0], "None"),
    ("axis", lambda: np.ones(3).sum(axis=1), "from the end"),
])
def test_numpy_errors_are_read(name, action, words):
    found = failures.read(error_of(action), False)
    assert found and found[0] == name and words in found[1]


@pytest.mark.parametrize("name, action, words", [
    ("broadcast", lambda t: t.ones(4, 7) - t.ones(4, 1).sum(-1), "keepdim=True"),
    ("matmul", lambda t: t.nn.functional.linear(t.ones(6, 4), t.ones(4, 5)), "transposed"),
    ("concatenate", lambda t: t.cat([t.ones(2, 5, 4), t.ones(2, 3, 4)], dim=-1), "dim=-2"),
    ("dtype-mix", lambda t: t.ones(2, 2, dtype=t.float64) @ t.ones(2, 2), "float64"),
    ("reshape", lambda t: t.ones(60).reshape(2, 5, 3, 3), "heads"),
])
def test_torch_errors_are_read(name, action, words):
    torch = pytest.importorskip("torch")
    found = failures.read(error_of(lambda: action(torch)), False)
    assert found and found[0] == name and words in found[1]


def test_errors_that_say_nothing_recognisable_are_not_read():
    assert failures.read({"type": "ValueError", "message": "bad input", "line": 1}, False) is None
    assert failures.read({"type": "KeyError", "message": "'Wq'", "line": 1}, False) is None


def test_an_assert_where_a_value_error_belongs_and_a_check_too_strict():
    les = load("11")
    raising = {i for i, c in enumerate(les.cases) if c.raises}

    def assertion(i, case, expected):
        if i in raising:
            return Outcome("error", error={"type": "AssertionError", "message": "too long",
                                           "line": 5, "trace": []})
        return expected
    found, _ = diagnosis_of("11", assertion)
    assert "symptom:wrong-exception" in names(found)
    strict = min(set(range(len(les.cases))) - raising)

    def too_strict(i, case, expected):
        if i == strict:
            return Outcome("error", error={"type": "ValueError", "message": "too long",
                                           "line": 5, "trace": []})
        return expected
    found, _ = diagnosis_of("11", too_strict)
    assert "symptom:check-too-strict" in names(found)
    right, failing = diagnosis_of("11", lambda i, case, expected: expected)
    assert right == [] and failing == set()


@pytest.mark.parametrize("lesson_id", ["05", "06"])
def test_an_eps_of_another_size_is_named(lesson_id):
    """The reference itself, run with a fixed eps in place of the one given: tiny differences on
    ordinary rows, large ones where a row's variance is near zero or another eps is passed."""
    from dataclasses import replace
    from grader.judge import trusted
    les = load(lesson_id)
    fixed = [replace(c, calls=tuple(replace(x, kwargs={**x.kwargs, "eps": 1e-7}) for x in c.calls))
             for c in les.cases]
    theirs = trusted.run(les.namespace(), fixed)
    found, failing = diagnosis_of(lesson_id, lambda i, case, expected: theirs[i])
    eps = [d for d in found if d.mistake == "symptom:eps"]
    assert failing and eps and eps[0].cases <= failing
    ordinary = min(i for i in failing if np.max(np.abs(
        np.asarray(theirs[i].outputs[0]) - np.asarray(les.expected[i].outputs[0]))) < 1e-4)

    def near(i, case, expected):
        if i != ordinary:
            return theirs[i]
        return Outcome("ok", outputs=[nudge(np.asarray(theirs[i].outputs[0]))])
    found, _ = diagnosis_of(lesson_id, near)
    assert "symptom:eps" not in names(found)


def symptoms_alone(lesson_id, answer):
    """The symptoms of an answer, as if no known mistake explained any of it."""
    les = load(lesson_id)
    outcomes = [answer(i, c, e) for i, (c, e) in enumerate(zip(les.cases, les.expected))]
    results = [CaseResult(c, judge(c, o, e, les.spec), o, e, i)
               for i, (c, o, e) in enumerate(zip(les.cases, outcomes, les.expected))]
    failing = {i for i, r in enumerate(results) if not r.verdict.passed}
    return symptoms.explain(les, results, failing, set()), failing


def slipped(lesson_id, change):
    """An answer: the reference run on every case with change(call) in place of each call."""
    from dataclasses import replace
    from grader.judge import trusted
    les = load(lesson_id)
    cases = [replace(c, calls=tuple(change(x) for x in c.calls)) for c in les.cases]
    return trusted.run(les.namespace(), cases)


def in_dict(key, f):
    """A change of a call: its dict of parameters with `key` set to f(the dict)."""
    def change(call):
        args = tuple({**a, key: f(a)} if isinstance(a, dict) and key in a else a for a in call.args)
        return type(call)(call.fn, args, call.kwargs)
    return change


@pytest.mark.parametrize("name, lesson_id, change, words", [
    ("symptom:copied-input", "08", lambda c: type(c)(c.fn, c.args[:3] + (c.args[2],) + c.args[4:],
                                                     c.kwargs), "`Wk` used in place of `Wv`"),
    ("symptom:copied-input", "14", in_dict("W3", lambda p: p["W1"]), '`p["W1"]` used in place of `p["W3"]`'),
    ("symptom:swapped-inputs", "05", lambda c: type(c)(c.fn, (c.args[0], c.args[2], c.args[1])
                                                       + c.args[3:], c.kwargs), "swapped"),
    ("symptom:swapped-inputs", "14", lambda c: type(c)(c.fn, tuple(
        {**a, "norm1": a["norm2"], "norm2": a["norm1"]} if isinstance(a, dict) else a
        for a in c.args), c.kwargs), "swapped"),
    ("symptom:transposed-input", "08", lambda c: type(c)(c.fn, (c.args[0], c.args[1].T.copy())
                                                         + c.args[2:], c.kwargs), "transposed"),
])
def test_a_slip_between_inputs_is_named(name, lesson_id, change, words):
    theirs = slipped(lesson_id, change)
    found, failing = symptoms_alone(lesson_id, lambda i, case, expected: theirs[i])
    slip = [d for d in found if d.mistake.startswith("symptom:") and d.mistake != "symptom:part"
            and d.mistake != "symptom:function"]
    assert failing and [d.mistake for d in slip] == [name], names(found)
    assert words in slip[0].message and slip[0].cases == failing
    ordinary = min(i for i in failing if theirs[i].status == "ok")

    def near(i, case, expected):
        if i != ordinary:
            return theirs[i]
        return Outcome("ok", outputs=[map_floats(o, nudge) for o in theirs[i].outputs])
    found, _ = symptoms_alone(lesson_id, near)
    assert name not in names(found)


@pytest.mark.parametrize("lesson_id", ["02", "03"])
def test_failures_confined_to_queries_and_keys_of_different_lengths(lesson_id):
    from grader.judge.symptoms import traits
    les = load(lesson_id)
    differ = {i for i, c in enumerate(les.cases) if "lengths" in traits.value_traits(c)}
    assert 2 <= len(differ) < len(les.cases)

    def off(a):
        return a + 0.1 * np.sin(3 * a) + 0.05
    found, failing = diagnosis_of(lesson_id, changed(off, lambda i, c: i in differ))
    assert failing == differ and "symptom:only-lengths" in names(found)
    extra = min(i for i in set(range(len(les.cases))) - differ
                if any(np.asarray(o).dtype.kind == "f" for o in les.expected[i].outputs))
    near, _ = diagnosis_of(lesson_id, changed(off, lambda i, c: i in differ | {extra}))
    assert "symptom:only-lengths" not in names(near)


def flip_leaf(value, key):
    """The value with the leaf at `key` (an index into a tuple, or a dict key inside it) reversed
    along its first axis; other leaves as they are."""
    def flip(a):
        return a[::-1].copy() if isinstance(a, np.ndarray) else Tensor(a.array[::-1].copy())
    if isinstance(value, tuple):
        return tuple(flip(v) if i == key else flip_leaf(v, key) if isinstance(v, dict) else v
                     for i, v in enumerate(value))
    if isinstance(value, dict):
        return {k: flip(v) if k == key else v for k, v in value.items()}
    return value


@pytest.mark.parametrize("lesson_id, key, words", [("19", "k", "['k']"), ("21", 1, "the second returned value")])
def test_one_returned_value_rearranged_is_named(lesson_id, key, words):
    def answer(i, case, expected):
        if expected.status != "ok":
            return expected
        return Outcome("ok", outputs=[flip_leaf(o, key) for o in expected.outputs])
    found, failing = symptoms_alone(lesson_id, answer)
    part = [d for d in found if d.mistake == "symptom:rearranged-part"]
    assert failing and part and words in part[0].message, names(found)
    first = min(failing)

    def near(i, case, expected):
        out = answer(i, case, expected)
        if i != first:
            return out
        return Outcome("ok", outputs=[map_floats(o, nudge) for o in out.outputs])
    found, _ = symptoms_alone(lesson_id, near)
    assert "symptom:rearranged-part" not in names(found)


@pytest.mark.parametrize("lesson_id, name", [("05", "x"), ("04", "z"), ("06", "x")])
def test_an_answer_that_is_its_input_unchanged_is_named(lesson_id, name):
    les = load(lesson_id)

    def answer(i, case, expected):
        x = case.calls[0].args[0]
        if expected.status != "ok" or len(case.calls) > 1 or not isinstance(x, np.ndarray) or not x.ndim:
            return expected
        return Outcome("ok", outputs=[x.copy()])
    found, failing = symptoms_alone(lesson_id, answer)
    same = [d for d in found if d.mistake == "symptom:returns-input"]
    assert failing and same and f"`{name}` unchanged" in same[0].message, names(found)
    first = min(failing)

    def near(i, case, expected):
        out = answer(i, case, expected)
        return Outcome("ok", outputs=[nudge(np.asarray(out.outputs[0]))]) if i == first else out
    found, _ = symptoms_alone(lesson_id, near)
    assert "symptom:returns-input" not in names(found)
