"""Symptoms read from the learner's values beside the expected ones: the kind of value returned,
float32 precision, a constant factor, offset, log or exp, clipped or zeroed entries, a small
constant (eps) handled differently.

A number read off the learner's values (a factor, an offset, where values stop) is the learner's
to choose, and on a hidden case could spell out its inputs: a symptom writes it out only as read on
the public cases it covers (or as a named constant such as 2 or 1/sqrt(8)), never from a hidden one.
"""
import numpy as np

from grader.judge import budget
from grader.judge.compare import kind, type_advice
from grader.judge.scan import ends_word
from . import relations as rel, traits as tr
from .evidence import every, symptom
from .layout import batch_symptom, layout_symptom, part_layout_symptom, returns_input_symptom


# ---- the kind of value returned ----

def kind_pairs(e, g):
    """(expected kind, got kind) where the two differ, walking tuples, dicts and lists together
    (a list of numbers against a list of single-number tensors compares item by item)."""
    if isinstance(e, tuple) and isinstance(g, tuple) and len(e) == len(g) or (
            isinstance(e, dict) and isinstance(g, dict) and e.keys() == g.keys()):
        pairs = zip(e.values(), g.values()) if isinstance(e, dict) else zip(e, g)
        return {p for a, b in pairs for p in kind_pairs(a, b)}
    if (isinstance(e, list) and isinstance(g, list) and len(e) == len(g) and kind(e) == kind(g)
            and any(kind(v) in ("a torch tensor", "a numpy array") for v in g)):
        return {p for a, b in zip(e, g) for p in kind_pairs(a, b)}
    return {(kind(e), kind(g))} if kind(e) != kind(g) else set()


def type_symptom(results):
    """The same kind of value returned where another is expected, on every failing case."""
    kinds = set()
    for r in results:
        both = rel.answers(r)
        found = both and {p for e, g in zip(*both) for p in kind_pairs(e, g)}
        if not found:
            return None
        kinds |= found
    if len(kinds) != 1:
        return None
    (expected, got), = kinds
    advice = type_advice(expected, got)
    if expected == "a number" and got in ("a torch tensor", "a numpy array"):
        advice = ("; a single number still held in a tensor or array: take it out with `.item()` "
                  "(or `float(...)`)")
    return symptom("type", (
        f"{every(results)} you return {got} where the lesson expects {expected}{advice}."),
        [r.index for r in results])


# ---- the values ----

def uses_float32(source):
    """Whether the learner's source names a single- or half-precision type anywhere."""
    return bool(source) and (any(w in source for w in ("float32", ".float()", ".half()", "float16"))
                             or any(ends_word(source, w) for w in ("torch.float", "single")))


def precision_symptom(results, tol, source):
    cases = [r.index for r in results]

    def float32_case(r):
        pairs = rel.pairs_of(r)
        if pairs is None:
            return False
        if any(d == np.float32 for _, _, d in pairs):
            return all(e.shape == g.shape and rel.small_error(e, g, 1e-4) or rel.same(e, g, *tol)
                       for e, g, _ in pairs)
        bad = [(e, g) for e, g, _ in pairs if not rel.same(e, g, *tol)]
        if not bad:       # a check failed on values within tolerance: only tiny differences
            return any(not np.array_equal(e, g) for e, g, _ in pairs)
        return all(rel.float32_sized(e, g) for e, g in bad)

    if all(float32_case(r) for r in results):
        return symptom("float32", (
            f"{every(results)} your values are float32 numbers, or agree with the expected "
            "ones to about 6 or 7 significant digits and never differ by more: that is the "
            "precision of float32 (and where large values nearly cancel, float32 loses far more). The "
            "lesson computes in float64; look for float32 arrays or tensors (torch's default dtype, "
            "`torch.tensor` of Python floats, `.float()`, `np.float32`) somewhere in your steps."), cases)
    def close_for_its_inputs(r, e, g):
        """Off by at most 0.1% of the values' size, or of the inputs' size where large inputs
        nearly cancel (a mean subtracted from values far from zero)."""
        inputs = max((np.max(np.abs(a[np.isfinite(a)]), initial=0) for c in r.case.calls
                      for a in tr.arrays_in((c.args, c.kwargs)) if a.dtype.kind == "f"), default=0)
        return rel.small_error(e, g) or (e.shape == g.shape and np.isfinite(g).all() and np.isfinite(e).all()
                                         and np.max(np.abs(g - e)) <= 1e-3 * inputs)

    if uses_float32(source) and all(
            (pairs := rel.pairs_of(r)) is not None
            and all(rel.same(e, g, *tol) or close_for_its_inputs(r, e, g) for e, g, _ in pairs)
            for r in results):
        return symptom("float32", (
            f"{every(results)} your values are close to the expected ones (within 0.1% of their "
            "size, or of the inputs' size) without matching them, and your code computes in float32 (or converts to it): "
            "float32 keeps only about 7 significant digits, and steps such as large angles, sums "
            "of many terms, or large values that nearly cancel lose more. The lesson computes in "
            "float64; keep every array and tensor in float64."), cases)
    return None


def public_findings(find, results, tol):
    """find(e, g) on the public cases among `results` (a relation that holds on all of them):
    the numbers a symptom may write out."""
    shown = [r for r in results if r.case.public]
    return (rel.findings(find, shown, tol) or []) if shown else []


def listed(numbers):
    return f" ({', '.join(dict.fromkeys(f'{c:.6g}' for c in numbers[:12]))})" if numbers else ""


def structured(results, tol):
    """Whether some differing value holds several numbers: a single wrong number is a constant
    times the expected one, whatever went wrong."""
    return any(e.size > 1 for r in results for e, _, _ in rel.differing(r, tol) or [])


def scale_symptom(results, tol):
    cases = [r.index for r in results]
    constants = rel.findings(rel.factor, results, tol)
    if constants and not structured(results, tol) and (
            len(constants) < 2 or np.ptp(constants) > 1e-9 * abs(constants[0])):
        constants = None    # single numbers: only the same factor on several cases says more
    if constants:
        names = {rel.name_of(c) for c in constants}
        one = np.ptp(constants) <= 1e-9 * abs(constants[0])
        shown = public_findings(rel.factor, results, tol)
        what = names.pop() if len(names) == 1 and None not in names else (
            (f"{shown[0]:.6g}" if shown else "one constant") if one else None)
        return symptom("factor", (
            f"{every(results)} your output is the expected output times {what}: a scale is "
            "applied where it should not be, or missing where it should be (a 1/sqrt(d), a 2, a sign)."
            if what else
            f"{every(results)} your output is the expected output times a constant that changes "
            f"with the input{listed(shown)}: a whole-array "
            "scale differs, such as a statistic taken over all axes instead of one, a sum where "
            "a mean belongs, a division by the wrong count, or a size taken from the wrong axis."),
            cases)
    constants = rel.findings(rel.offset, results, tol)
    if constants and np.ptp(constants) <= 1e-9 * max(abs(constants[0]), 1e-12):
        shown = public_findings(rel.offset, results, tol)
        return symptom("offset", (
            f"{every(results)} your output is the expected output plus "
            f"{f'{shown[0]:.6g}' if shown else 'one constant'} everywhere: a constant is added (or "
            "left out) in one step."), cases)
    if "varies" in (rel.findings(rel.factor_kind(0), results, tol) or []):
        sums = all(np.allclose(g.reshape(-1, g.shape[-1]).sum(axis=0), 1) and g.ndim >= 2
                   for r in results for e, g, _ in rel.differing(r, tol))
        extra = (" Your values sum to 1 down each column instead of along each row: you normalised "
                 "over the wrong axis." if sums else
                 " The per-row statistic (a maximum, sum, norm or standard deviation you divide by) "
                 "is computed differently: over another axis, or a different statistic.")
        return symptom("row-factor", (
            f"{every(results)} each row of your output (along the last axis) is the expected row "
            f"times a factor of its own, different from row to row.{extra}"), cases)
    if "varies" in (rel.findings(rel.factor_kind(1), results, tol) or []):
        return symptom("column-factor", (
            f"{every(results)} each column of your output (each position along the last axis, "
            "a feature) is the expected one times a factor of its own: the per-feature scale is "
            "wrong, e.g. a gain (gamma) applied twice, applied as 1 + gamma, or left out."), cases)
    if max(rel.findings(rel.column_affine, results, tol) or [0]) > 0:
        return symptom("column-affine", (
            f"{every(results)} each feature (each position along the last axis) of your output is "
            "the expected one scaled and shifted by amounts of its own: the rest of the computation "
            "is right, and the per-feature scale and shift (a gain such as gamma, a bias such as "
            "beta) are applied differently: swapped, applied twice, or one of them left out."), cases)
    if rel.holds(rel.logged, results, tol):
        return symptom("log", (f"{every(results)} your output is the logarithm of the expected "
                               "output: a log is taken that should not be (or an exp is missing)."), cases)
    if rel.holds(rel.exped, results, tol):
        return symptom("exp", (f"{every(results)} your output is the exponential of the expected "
                               "output: an exp is applied that should not be (or a log is missing)."), cases)
    return None


def entries_symptom(results, tol, case_traits):
    """Right except at some entries: clipped values, wrong only where the answer is 0, zeros where
    it is not, NaN or inf where it is finite."""
    cases = [r.index for r in results]
    clips = [c for c in rel.findings(rel.clipped(tol), results, tol) or [] if c != "neutral"]
    if clips:
        shown = [c for c in public_findings(rel.clipped(tol), results, tol) if c != "neutral"]
        lows = {c[0] for c in shown if c[0] is not None}
        highs = {c[1] for c in shown if c[1] is not None}
        at = " and ".join(f"{w} {v:.6g}" for w, v in (
            ("below at", min(lows) if lows else None), ("above at", max(highs) if highs else None))
            if v is not None)
        return symptom("clipped", (
            f"{every(results)} your output is right wherever the expected value lies inside a range, "
            f"and stops at its own extreme values{f' ({at})' if at else ''} where the expected goes "
            "further: your "
            "code clips or caps a value (an input clipped to a fixed range, a floor or ceiling) "
            "that the lesson lets run free."), cases)
    if rel.holds(rel.wrong_only_where_zero(tol), results, tol):
        return symptom("zeros-wrong", (
            f"{every(results)} your output is right at every entry whose expected value is not 0, "
            "and wrong only at entries that should be exactly 0 (masked, ignored or filtered-out "
            "positions): those positions must be set to 0 (or kept out of the computation) "
            "explicitly."), cases)
    if "some" in (rel.findings(rel.zero_where_wrong(tol), results, tol) or []):
        large = all("large" in case_traits[r.index] for r in results)
        why = (" These cases hold large inputs (100 or more): an overflow (inf, NaN) replaced by 0 "
               "afterwards gives exactly this; compute the step so it cannot overflow instead."
               if large else "")
        return symptom("zeroed", (
            f"{every(results)} your output is right except at entries where it is exactly 0 (on "
            f"some cases, every entry) and the expected value is not: something sets these entries to zero (a mask or filter "
            f"that removes too much, or NaN/inf replaced by 0).{why}"), cases)
    if all(any(rel.nonfinite_where_finite(e, g) for e, g, _ in (rel.differing(r, tol) or []))
           for r in results):
        for trait in ("large", "-inf"):
            if all(trait in case_traits[r.index] for r in results):
                which, why = case_traits[results[0].index][trait]
                return symptom(f"nonfinite-{trait.strip('-')}", (
                    f"{every(results)} your output has NaN or inf where the expected value is "
                    f"finite, and every failing case is among {which}. {why}"), cases)
    return None


def value_symptoms(results, tol, case_traits, source=None, lesson=None):
    """What the learner's values have in common with the expected ones on every failing case."""
    for find in (lambda: type_symptom(results),
                 lambda: lesson and returns_input_symptom(lesson, results, tol),
                 lambda: precision_symptom(results, tol, source),
                 lambda: layout_symptom(results, tol),
                 lambda: scale_symptom(results, tol),
                 lambda: entries_symptom(results, tol, case_traits),
                 lambda: batch_symptom(results, tol),
                 lambda: part_layout_symptom(results, tol)):
        budget.check()
        found = find()
        if found:
            return found
    return None


# ---- a small constant handled differently ----

def eps_symptom(lesson, results, tol, source):
    """Where the lesson has an `eps`: every difference no larger than eps can make it (about eps
    over the smallest variance of a row of the input), tiny on ordinary inputs and large where a
    row's variance is near zero or another eps is passed."""
    table = tr.defaults(lesson.reference_source)
    if uses_float32(source):
        return None
    small = sensitive = 0
    for r in results:
        case = lesson.cases[r.index]
        eps = [values["eps"] for fn, (_, values) in table.items() if "eps" in values
               and any(c.fn == fn for c in case.calls)]
        spread = tr.smallest_row_variance(case)
        if not eps or spread is None:
            return None
        given = [v for c in case.calls for k, v in c.kwargs.items() if k == "eps"
                 and isinstance(v, float)]
        reach = 10 * max(eps + given) / spread if spread > 0 else np.inf
        if r.outcome.status == "error":
            if not (spread == 0 and r.outcome.error["type"] in ("FloatingPointError", "ZeroDivisionError")):
                return None
            sensitive += 1
            continue
        pairs = rel.differing(r, tol)
        if pairs is None:
            return None
        for e, g, _ in pairs:        # none: a property check failed on values within tolerance
            if e.shape != g.shape or not np.isfinite(e).all() or not np.isfinite(g).all():
                return None
            error = np.max(np.abs(g - e)) / max(np.max(np.abs(e)), 1e-300)
            if error > reach:
                return None
            if error < 1e-4:
                small += 1
            elif error > 1e-3:
                sensitive += 1
    if not (small and sensitive):
        return None
    return symptom("eps", (
        "Your answers differ from the expected ones by a tiny amount on ordinary inputs, and by a "
        "lot only where a row's values are tiny or nearly equal (a variance or mean square near "
        "zero) or another "
        "eps is passed; every difference is within what eps can change: the small constant eps is "
        "handled differently from the lesson's formula: left out, a fixed number written in place "
        "of the `eps` argument, added outside the square root instead of inside it (or the other "
        "way round), or added to another quantity."), [r.index for r in results])
