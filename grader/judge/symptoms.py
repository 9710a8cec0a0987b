"""Symptoms: general explanations of wrong answers that no known mistake describes.

After the known mistakes, the trusted parent looks at how the learner's answers relate to the
expected ones on the failing cases nothing else explains: float32-sized errors, a transposed or
squeezed layout, a constant factor or offset, a log or exp of the answer, failures confined to the
cases that share one trait of their inputs, recognisable exceptions, and (where the author marked
cases that run one part of the lesson alone) which part is wrong. A symptom speaks only when its
evidence holds on every failing case it covers; it never speaks for a passing submission.
"""
import itertools
import math
import re

import numpy as np

from .compare import as_array, kind, type_advice
from .diagnose import Diagnosis

FLOAT32_BAND = (1e-9, 2e-5, 1e-6)  # relative to the values' size: least, most, most unless
                                   # the values are float32 numbers themselves
CLOSE = dict(rtol=1e-6, atol=1e-9)


def symptom(name, message, cases):
    return Diagnosis(f"symptom:{name}", message, None, frozenset(cases))


def numeric_pairs(result):
    """(expected, got) float arrays of each output of a case that ran, or None if not numbers."""
    if result.outcome.status != "ok":
        return None
    pairs = []
    for e, g in zip(result.expected.outputs, result.outcome.outputs):
        e, g = as_array(e), as_array(g)
        if isinstance(e, str) or isinstance(g, str) or e.dtype.kind == "b" or g.dtype.kind == "b":
            return None
        pairs.append((e.astype(np.float64), g.astype(np.float64)))
    return pairs


def holds(relation, results):
    """Whether `relation(e, g)` holds for every output of every case (all numeric)."""
    for r in results:
        pairs = numeric_pairs(r)
        if pairs is None:
            return False
        for e, g in pairs:
            with np.errstate(all="ignore"):
                if not relation(e, g):
                    return False
    return True


# ---- the relation of the answers to the expected ones ----

def float32_sized(e, g):
    """Every difference within float32's reach of the values' size, and the values either
    float32 numbers themselves or off by no more than float32's rounding."""
    if e.shape != g.shape or not np.array_equal(np.isfinite(e), np.isfinite(g)):
        return False
    finite = np.isfinite(e)
    if not finite.any():
        return False
    scale = np.max(np.abs(e[finite]))
    diff = np.max(np.abs(g[finite] - e[finite]))
    single = np.array_equal(g[finite].astype(np.float32).astype(np.float64), g[finite])
    return scale > 0 and FLOAT32_BAND[0] * scale < diff <= (
        FLOAT32_BAND[1] if single else FLOAT32_BAND[2]) * scale


def returned_float32(result):
    """Every output of the case came back as float32 numbers (an array or a tensor)."""
    outputs = [as_array(g) for g in result.outcome.outputs] if result.outcome.status == "ok" else []
    return bool(outputs) and all(not isinstance(g, str) and g.dtype == np.float32 for g in outputs)


def permuted(e, g):
    if e.ndim < 2 or e.ndim > 5 or g.shape == e.shape and np.allclose(g, e, **CLOSE, equal_nan=True):
        return False
    return any(g.shape == tuple(e.shape[i] for i in p) and np.allclose(g, e.transpose(p), **CLOSE)
               for p in itertools.permutations(range(e.ndim)) if p != tuple(range(e.ndim)))


def squeezed(e, g):
    return (e.shape != g.shape and e.size == g.size and np.squeeze(e).shape == np.squeeze(g).shape
            and np.allclose(np.squeeze(g), np.squeeze(e), **CLOSE))


def factor(e, g):
    """The constant c with g = c * e, or None."""
    if e.shape != g.shape or not np.isfinite(e).all() or not np.isfinite(g).all():
        return None
    big = np.abs(e) > 1e-6 * np.max(np.abs(e), initial=0)
    if not big.any():
        return None
    c = float(np.median(g[big] / e[big]))
    if abs(c - 1) < 1e-6 or c == 0 or not np.allclose(g, c * e, rtol=1e-7, atol=1e-12):
        return None
    return c


def offset(e, g):
    """The constant c with g = e + c, or None."""
    if e.shape != g.shape or e.size < 2 or not np.isfinite(e).all() or not np.isfinite(g).all():
        return None
    c = float(np.median(g - e))
    scale = max(np.max(np.abs(e)), 1e-12)
    if abs(c) <= 1e-6 * scale or not np.allclose(g, e + c, rtol=1e-7, atol=1e-9 * scale):
        return None
    return c


def name_of(c):
    """A constant in words when it is a recognisable one (2, 1/2, -1, sqrt(8), 1/sqrt(8)), else None."""
    for n in range(2, 9):
        for value, words in ((n, str(n)), (1 / n, f"1/{n}"), (-n, f"-{n}")):
            if math.isclose(c, value, rel_tol=1e-6):
                return words
    if math.isclose(c, -1, rel_tol=1e-6):
        return "-1"
    for n in range(2, 4097):
        if round(math.sqrt(n)) ** 2 == n:
            continue
        for value, words in ((math.sqrt(n), f"sqrt({n})"), (1 / math.sqrt(n), f"1/sqrt({n})")):
            if math.isclose(c, value, rel_tol=1e-6):
                return words
    return None


def logged(e, g):
    """g is the logarithm of e (where e is 0, g is -inf or below exp's range)."""
    positive = e > 0
    return (e.shape == g.shape and positive.any() and (e >= 0).all()
            and np.allclose(g[positive], np.log(e[positive]), **CLOSE)
            and (g[~positive] < -700).all())     # log of a probability that underflowed to 0


def constant_relation(find, results):
    """The constants c relating every output of every case (g = c * e, or g = e + c), or None."""
    if not holds(lambda e, g: find(e, g) is not None, results):
        return None
    return [find(e, g) for r in results for e, g in numeric_pairs(r)]


def type_symptom(results):
    """The same kind of value returned where another is expected, on every failing case."""
    kinds = {(kind(e), kind(g)) for r in results for e, g in zip(r.expected.outputs, r.outcome.outputs)}
    if len(kinds) != 1:
        return None
    (expected, got), = kinds
    if expected == got:
        return None
    return symptom("type", (
        f"On every failing case you return {got} where the lesson expects {expected}"
        f"{type_advice(expected, got)}."), [r.index for r in results])


def value_symptoms(results):
    """What the learner's values have in common with the expected ones on every failing case."""
    cases = [r.index for r in results]
    returned = type_symptom(results)
    if returned:
        return returned
    if all(returned_float32(r) or holds(float32_sized, [r]) for r in results):
        return symptom("float32", (
            "On every failing case your values are float32 numbers, or agree with the expected "
            "ones to about 6 or 7 significant digits and never differ by more: that is the "
            "precision of float32 (and where large values nearly cancel, float32 loses far more). The "
            "lesson computes in float64; look for float32 arrays or tensors (torch's default dtype, "
            "`torch.tensor` of Python floats, `.float()`, `np.float32`) somewhere in your steps."), cases)
    if holds(permuted, results):
        return symptom("transposed", (
            "On every failing case your output holds exactly the expected values, with its axes in "
            "another order (transposed): check which axis is which, e.g. (..., T, D) against "
            "(..., D, T), and the order of the operands of a matrix product."), cases)
    if holds(squeezed, results):
        return symptom("extra-axis", (
            "On every failing case your output holds the expected values, with an axis of size 1 "
            "added or missing: check `keepdims`, `squeeze`/`unsqueeze` and indexing with a list "
            "versus a number."), cases)
    constants = constant_relation(factor, results)
    if constants:
        names = {name_of(c) for c in constants}
        what = names.pop() if len(names) == 1 and None not in names else (
            f"{constants[0]:.6g}" if np.ptp(constants) <= 1e-9 * abs(constants[0]) else None)
        return symptom("factor", (
            f"On every failing case your output is the expected output times {what}: a scale is "
            "applied where it should not be, or missing where it should be (a 1/sqrt(d), a 2, a sign)."
            if what else
            "On every failing case your output is the expected output times a constant that changes "
            f"with the input's sizes ({', '.join(f'{c:.6g}' for c in constants[:4])}): check the "
            "scaling step."), cases)
    constants = constant_relation(offset, results)
    if constants and np.ptp(constants) <= 1e-9 * max(abs(constants[0]), 1e-12):
        return symptom("offset", (
            f"On every failing case your output is the expected output plus {constants[0]:.6g} "
            "everywhere: a constant is added (or left out) in one step."), cases)
    if holds(logged, results):
        return symptom("log", ("On every failing case your output is the logarithm of the expected "
                               "output: a log is taken that should not be (or an exp is missing)."), cases)
    if holds(lambda e, g: e.shape == g.shape and np.allclose(g, np.exp(e), **CLOSE), results):
        return symptom("exp", ("On every failing case your output is the exponential of the expected "
                               "output: an exp is applied that should not be (or a log is missing)."), cases)
    return None


# ---- traits of a case's inputs, for failures confined to some cases ----

def arrays_in(value):
    if isinstance(value, np.ndarray):
        yield value
    elif hasattr(value, "dtype") and hasattr(value, "shape"):    # a torch tensor among the inputs
        yield np.asarray(value.detach().cpu() if hasattr(value, "detach") else value)
    elif isinstance(value, (list, tuple)):
        arr = as_array(list(value)) if value and not any(isinstance(v, dict) for v in value) else None
        if isinstance(arr, np.ndarray) and arr.dtype.kind in "iuf":
            yield arr
        else:
            for v in value:
                yield from arrays_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from arrays_in(v)


def traits(case):
    """Which notable traits a case's inputs have."""
    found = set()
    for c in case.calls:
        for a in arrays_in((c.args, c.kwargs)):
            if a.dtype.kind != "f" or a.size == 0:
                continue
            finite = a[np.isfinite(a)]
            if finite.size and np.max(np.abs(finite)) >= 100:
                found.add("large")
            if np.isneginf(a).any():
                found.add("-inf")
            if np.isnan(a).any():
                found.add("nan")
    if case.float_errors:
        found.add("float-errors")
    return found


TRAIT_WORDS = {
    "large": ("the cases whose inputs hold large values (100 or more)",
              "An exponential of a large number overflows (exp(710) is already inf), and inf - inf "
              "or inf / inf is NaN: rewrite the step so it never exponentiates a large positive "
              "number (subtract the maximum first, or pick the branch of the formula by sign)."),
    "-inf": ("the cases whose inputs hold -inf",
             "-inf - (-inf) and 0 * inf are NaN: check what your code does with a row or entry of "
             "-inf (a masked position) before and after the softmax or maximum."),
    "nan": ("the cases whose inputs hold NaN", "NaN must pass through as the lesson describes."),
    "float-errors": ("the cases that run with numpy's floating-point warnings raised as errors",
                     "Some step overflows, divides by zero or makes NaN on the way, even if the "
                     "final answer would come out right; compute it so no intermediate overflows."),
}


def confined_symptoms(lesson_cases, results, passing):
    """Failures confined to the cases that share one trait of their inputs."""
    if any(r.outcome.status not in ("ok", "error") for r in results):
        return None
    failing_traits = [traits(lesson_cases[r.index]) for r in results]
    passing_traits = set().union(*(traits(lesson_cases[i]) for i in passing)) if passing else set()
    if not passing:
        return None
    for trait, (which, why) in TRAIT_WORDS.items():
        if all(trait in t for t in failing_traits) and trait not in passing_traits:
            nonfinite = all(
                r.outcome.status == "ok" and any(np.isnan(g).any() or np.isinf(g).any()
                                                 for _, g in (numeric_pairs(r) or [])) or
                r.outcome.status == "error" for r in results)
            how = " and give NaN, inf or an error there" if nonfinite else ""
            return symptom(f"only-{trait.strip('-')}", (
                f"Only {which} fail ({len(results)} of them){how}; every other case passes. "
                f"{why}"), [r.index for r in results])
    return None


# ---- recognisable exceptions ----

BROADCAST = re.compile(r"broadcast together with shapes ((?:\([\d, ]*\)\s*)+)")
ERRORS = (
    (re.compile(r"could not be broadcast together with shapes"), "broadcast", (
        "numpy could not line up two arrays of shapes {shapes} in an elementwise step. A common "
        "cause: a reduction (`max`, `sum`, `mean`) that dropped its axis; pass `keepdims=True` so "
        "the result still lines up with the array it came from.")),
    (re.compile(r"The size of tensor a \(\d+\) must match the size of tensor b"), "broadcast", (
        "Two tensors of different sizes met in an elementwise step. A common cause: a reduction "
        "that dropped its dimension; pass `keepdim=True` so the result still lines up.")),
    (re.compile(r"expected scalar type (Double|Float) but found (Float|Double)|must have the same dtype|"
                r"expected m1 and m2 to have the same dtype|same dtype"), "dtype-mix", (
        "A float32 tensor met a float64 one. `torch.tensor` of Python floats and `torch.ones`/"
        "`torch.zeros` without a dtype make float32 tensors; create every tensor with "
        "`dtype=torch.float64`.")),
    (re.compile(r"axis -?\d+ is out of bounds for array of dimension|Dimension out of range"),
     "axis", ("An axis was named that the input does not have: count axes from the end "
              "(`axis=-1`, `-2`), so the code works with and without leading batch axes.")),
    (re.compile(r"matmul: Input operand \d+ has a mismatch in its core dimension|"
                r"shapes? cannot be multiplied|size mismatch|mat1 and mat2"), "matmul", (
        "A matrix product met inner sizes that differ: check the order of the operands and which "
        "ones need a transpose (this workbook computes `x @ W`, with W of shape (in, out)).")),
)


def error_symptoms(results):
    """A recognisable exception raised on every failing case it covers."""
    errors = [r for r in results if r.outcome.status == "error"]
    if not errors:
        return None
    for pattern, name, advice in ERRORS:
        if all(pattern.search(r.outcome.error.get("message") or "") for r in errors):
            shapes = BROADCAST.search(errors[0].outcome.error["message"] or "")
            shown = " and ".join(shapes.group(1).split()) if shapes else "that differ"
            line = errors[0].outcome.error.get("line")
            at = f" (line {line})" if line else ""
            many = f"All {len(errors)} failing cases that raised" if len(errors) > 1 else "The case that"
            return symptom(name, f"{many} raised the same kind of error{at}. "
                                 + advice.format(shapes=shown), [r.index for r in errors])
    return None


# ---- which part of a lesson is wrong ----

def part_symptoms(lesson_cases, results, passing):
    """Where the author marked cases that run one part alone: the parts that are right and wrong."""
    parts = {}
    for i, c in enumerate(lesson_cases):
        if c.part:
            parts.setdefault(c.part, []).append(i)
    failing = {r.index for r in results}
    right = [p for p, idx in parts.items() if all(i in passing for i in idx)]
    wrong = [p for p, idx in parts.items() if all(i in failing for i in idx)]
    if not (right and wrong):
        return None
    return symptom("part", (
        f"Every case that runs {' and '.join(right)} alone passes, and every case that runs "
        f"{' and '.join(wrong)} alone fails: the difference is in {' and '.join(wrong)}."),
        [i for p in wrong for i in parts[p]])


def mutation_symptom(results):
    """The learner's function changed its inputs in place on every failing case."""
    if not all(r.outcome.status == "ok" and r.outcome.mutated for r in results):
        return None
    return symptom("in-place", (
        "On every failing case your function changed an input array in place (`x -= m`, "
        "`x[...] = ...`, `x *= ...`, an `out=` argument), so the caller's data is altered. Compute "
        "into a new array instead (`x = x - m`)."), [r.index for r in results])


def explain(lesson, case_results, failing, explained):
    """Symptoms for the failing cases that no known mistake explains, best evidence first."""
    rest = sorted(failing - explained)
    if not rest:
        return []
    results = [case_results[i] for i in rest]
    passing = {i for i in range(len(case_results)) if i not in failing}
    found = [s for s in (part_symptoms(lesson.cases, results, passing),
                         mutation_symptom(results),
                         error_symptoms(results),
                         confined_symptoms(lesson.cases, results, passing)) if s]
    if not found and all(r.outcome.status == "ok" for r in results):
        found = [s for s in (value_symptoms(results),) if s]
    return found
