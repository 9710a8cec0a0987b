"""Symptoms: general explanations of wrong answers that no known mistake describes.

After the known mistakes, the trusted parent looks at how the learner's answers relate to the
expected ones on the failing cases nothing else explains: float32-sized errors, a transposed or
squeezed layout, a constant factor or offset, a log or exp of the answer, failures confined to the
cases that share one trait of their inputs, recognisable exceptions, and (where the author marked
cases that run one part of the lesson alone) which part is wrong. A symptom speaks only when its
evidence holds on every failing case it covers; it never speaks for a passing submission.
"""
import re

import numpy as np

from . import failures, relations as rel, traits as tr, variants
from .compare import kind, type_advice
from .diagnose import Diagnosis


def symptom(name, message, cases):
    return Diagnosis(f"symptom:{name}", message, None, frozenset(cases))


def every(results):
    n = len(results)
    return "On every failing case" if n > 1 else "On the failing case"


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
        found = {p for e, g in zip(r.expected.outputs, r.outcome.outputs) for p in kind_pairs(e, g)}
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
    return bool(source) and bool(re.search(
        r"float32|\.float\(\)|torch\.float\b|\.half\(\)|float16|bfloat16|single\b", source))


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


def layout_symptom(results, tol):
    cases = [r.index for r in results]
    if rel.holds(rel.permuted, results, tol):
        return symptom("transposed", (
            f"{every(results)} your output holds exactly the expected values, with its axes in "
            "another order (transposed): check which axis is which, e.g. (..., T, D) against "
            "(..., D, T), and the order of the operands of a matrix product."), cases)
    if rel.holds(rel.squeezed, results, tol):
        return symptom("extra-axis", (
            f"{every(results)} your output holds the expected values, with an axis of size 1 "
            "added or missing: check `keepdims`, `squeeze`/`unsqueeze` and indexing with a list "
            "versus a number."), cases)
    if rel.holds(rel.reshaped, results, tol):
        shapes = first_shapes(results, tol)
        return symptom("reshaped", (
            f"{every(results)} your output holds exactly the expected values in the expected "
            f"order, but in another shape ({shapes}): a reshape is missing, or one too many (e.g. "
            "heads not merged back into one axis, or split when they should not be)."), cases)
    if rel.holds(rel.rearranged, results, tol):
        shapes = first_shapes(results, tol)
        return symptom("rearranged", (
            f"{every(results)} your output holds exactly the expected numbers, only arranged "
            f"differently ({shapes}): the arithmetic is right and the layout is wrong. Check the "
            "axes of each reshape, transpose, concatenate or stack: a reshape straight into a "
            "shape whose axes are in another order scrambles values, so move the axes (transpose, "
            "swapaxes) first and reshape after."), cases)
    return None


def part_layout_symptom(results, tol):
    """One returned value (a cache, one of several outputs) holds exactly the expected numbers
    arranged differently on every failing case, whatever the other values do."""
    tables = [rel.leaf_pairs(r) for r in results]
    if any(t is None for t in tables) or len(tables[0]) < 2:
        return None

    def shows(table, path):
        """For one case: "yes" when the leaf at `path` differs and is the expected numbers
        rearranged in every call (a few values too alike to tell count as "maybe"), else None."""
        found = []
        for (_, p), (e, g) in table.items():
            if p != path or rel.same(e, g, *tol):
                continue
            if e.size != g.size or not np.allclose(np.sort(g.ravel()), np.sort(e.ravel()), **rel.EXACT):
                return None
            found.append("yes" if rel.distinct_values(e) else "maybe")
        return None if not found else ("yes" if "yes" in found else "maybe")

    for path in dict.fromkeys(p for _, p in tables[0]):
        seen = [shows(t, path) for t in tables]
        if None not in seen and seen.count("yes") >= 2:
            what = ("returned value " + " ".join(f"[{p}]" if isinstance(p, str) else str(p + 1)
                                                   for p in path) if path else "the output")
            return symptom("rearranged-part", (
                f"{every(results)} {what} holds exactly the expected numbers, only arranged "
                "differently (e.g. new rows before old ones, or along another axis): the values "
                "are right and their order is wrong (the other values may follow from it). Check the "
                "order of the pieces you join and the axis you join them on."),
                [r.index for r in results])
    return None


def returns_input_symptom(lesson, results, tol):
    """On every failing case the answer is one of the call's own inputs, unchanged."""
    table = tr.defaults(lesson.reference_source)
    named, telling = set(), 0
    for r in results:
        if r.outcome.status != "ok" or len(r.outcome.outputs) != 1:
            return None
        call, out = lesson.cases[r.index].calls[0], r.outcome.outputs[0]
        got = rel.as_array(out)
        if isinstance(got, str) or got.dtype.kind not in "iuf" or got.ndim == 0:
            return None
        names = table.get(call.fn, ([], {}))[0]
        found = [i for i, a in enumerate(call.args)
                 if isinstance(a, np.ndarray) and a.shape == got.shape and a.dtype.kind == "f"
                 and np.allclose(got, a, **rel.EXACT)]
        if not found:
            return None
        named.add(names[found[0]] if found[0] < len(names) else f"argument {found[0] + 1}")
        telling += rel.distinct_values(call.args[found[0]])
    if len(named) != 1 or telling < 2:
        return None
    name, = named
    return symptom("returns-input", (
        f"{every(results)} your function returns its input `{name}` unchanged: the computation "
        "never reaches the value returned (a result assigned to a new name and the old one "
        "returned, an early `return`, or an operation whose result is thrown away)."),
        [r.index for r in results])


def first_shapes(results, tol):
    e, g, _ = rel.differing(results[0], tol)[0]
    return f"expected shape {tuple(e.shape)}, yours {tuple(g.shape)}" if e.shape != g.shape else (
        f"shape {tuple(e.shape)}")


def scale_symptom(results, tol):
    cases = [r.index for r in results]
    constants = rel.findings(rel.factor, results, tol)
    if constants:
        names = {rel.name_of(c) for c in constants}
        what = names.pop() if len(names) == 1 and None not in names else (
            f"{constants[0]:.6g}" if np.ptp(constants) <= 1e-9 * abs(constants[0]) else None)
        return symptom("factor", (
            f"{every(results)} your output is the expected output times {what}: a scale is "
            "applied where it should not be, or missing where it should be (a 1/sqrt(d), a 2, a sign)."
            if what else
            f"{every(results)} your output is the expected output times a constant that changes "
            f"with the input ({', '.join(dict.fromkeys(f'{c:.6g}' for c in constants[:12]))}): a whole-array "
            "scale differs, such as a statistic taken over all axes instead of one, a sum where "
            "a mean belongs, a division by the wrong count, or a size taken from the wrong axis."),
            cases)
    constants = rel.findings(rel.offset, results, tol)
    if constants and np.ptp(constants) <= 1e-9 * max(abs(constants[0]), 1e-12):
        return symptom("offset", (
            f"{every(results)} your output is the expected output plus {constants[0]:.6g} "
            "everywhere: a constant is added (or left out) in one step."), cases)
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
        lows = {c[0] for c in clips if c[0] is not None}
        highs = {c[1] for c in clips if c[1] is not None}
        at = " and ".join(f"{w} {v:.6g}" for w, v in (
            ("below at", min(lows) if lows else None), ("above at", max(highs) if highs else None))
            if v is not None)
        return symptom("clipped", (
            f"{every(results)} your output is right wherever the expected value lies inside a range, "
            f"and stops at its own extreme values ({at}) where the expected goes further: your "
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


def batch_symptom(results, tol):
    """Only the first item along the leading axis right, the others wrong, on every failing case."""
    for r in results:
        pairs = rel.differing(r, tol)
        if not pairs:
            return None
        for e, g, _ in pairs:
            rows = rel.rows_right(e, g, tol)
            if rows is None or not rows[0] or any(rows[1:]):
                return None
    return symptom("first-item-only", (
        f"{every(results)} the first item along the leading (batch) axis of your output is right "
        "and every other item is wrong: your code handles one item and then uses something of the "
        "first item for all of them (an index `[0]`, a size from `shape[0]`, a mask or statistic "
        "built for one item), or it mixes the items together."), [r.index for r in results])


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


# ---- failures confined to the cases that share one trait ----

def confined_symptoms(lesson, results, passing, case_traits):
    """Failures confined to exactly the cases that share one trait of their inputs or calls."""
    if not passing or any(r.outcome.status not in ("ok", "error") for r in results):
        return None
    failing_traits = [case_traits[r.index] for r in results]
    passing_traits = set().union(*(case_traits[i].keys() for i in passing))
    cases = [r.index for r in results]
    nonfinite = all(
        r.outcome.status == "error" or any(np.isnan(g).any() or np.isinf(g).any()
                                           for _, g, _ in (rel.pairs_of(r) or []))
        for r in results)
    how = " and give NaN, inf or an error there" if nonfinite else ""
    shared = set(failing_traits[0]).intersection(*failing_traits[1:]) - passing_traits
    marked = [t for t in shared if isinstance(t, tuple) and t[0] == "marked"]
    order = ([t for t in tr.value_traits(lesson.cases[results[0].index]) if t in shared
              and not isinstance(t, tuple)] + marked
             + sorted((t for t in shared if isinstance(t, tuple) and t[0] != "marked"), key=str))
    for trait in order:
        if len(results) < 2 and not (isinstance(trait, tuple) and trait[0] == "marked"):
            continue
        which, why = failing_traits[0][trait]
        name = ("only-" + trait.strip("-") if isinstance(trait, str) else
                "only-marked" if trait[0] == "marked" else f"only-{trait[0]}-{trait[2]}")
        return symptom(name, (
            f"Only {which} fail ({len(results)} of them){how}; every other case passes. "
            f"{why}").strip(), cases)
    if len(results) >= 2:
        split = tr.separations([lesson.cases[i] for i in cases], [lesson.cases[i] for i in passing],
                               tr.rowwise(lesson))
        if split:
            key, which, why = split[0]
            return symptom(f"only-{key}", (
                f"Only {which} fail ({len(results)} of them); every other case passes. {why}"), cases)
    return None


# ---- recognisable exceptions ----

def error_symptoms(lesson, results, passing):
    """Recognisable exceptions: one symptom per kind, for the failing cases that raised it."""
    errors = [r for r in results if r.outcome.status == "error"]
    found = []
    expected_raise = {c.raises for c in lesson.cases if c.raises}
    wrong_type = [r for r in errors if lesson.cases[r.index].raises
                  and r.outcome.error["type"] not in ("NotImplementedError", "MissingFunction")]
    if wrong_type and len({r.outcome.error["type"] for r in wrong_type}) == 1:
        want, got = lesson.cases[wrong_type[0].index].raises, wrong_type[0].outcome.error["type"]
        advice = (" An `assert` raises AssertionError (and is skipped when Python runs with -O): "
                  f"write `if ...: raise {want}(\"...\")` instead." if got == "AssertionError" else
                  f" Raise `{want}` yourself, with a message, where the check fails.")
        found.append(symptom("wrong-exception", (
            f"On {'every' if len(wrong_type) > 1 else 'the'} case that must raise {want} your code "
            f"raises {got}: the check is there, with the wrong kind of exception.{advice}"),
            [r.index for r in wrong_type]))
    own = [r for r in errors if not lesson.cases[r.index].raises
           and r.outcome.error["type"] in expected_raise]
    if own and all(r.outcome.error.get("message") == own[0].outcome.error.get("message") for r in own):
        kind_ = own[0].outcome.error["type"]
        message = own[0].outcome.error.get("message") or ""
        probes = "; ".join(dict.fromkeys(lesson.cases[r.index].name for r in own[:4]))
        found.append(symptom("check-too-strict", (
            f"Your own check raises {kind_} ({message!r}) on {len(own)} case"
            f"{'s' if len(own) > 1 else ''} whose inputs are valid and must give an answer ({probes}): "
            "the condition of the check is too strict. Compare against the exact limit (`>` "
            "against `>=`, the last allowed index against the size) and make sure it compares "
            "the right sizes."), [r.index for r in own]))
    taken = {i for d in found for i in d.cases}
    groups = {}
    for r in errors:
        if r.index in taken:
            continue
        read = failures.read(r.outcome.error, lesson.cases[r.index].float_errors)
        if read:
            groups.setdefault(read[0], []).append((r, read[1]))
    for name, members in groups.items():
        r0, words = members[0]
        line = r0.outcome.error.get("line")
        at = f" (line {line})" if line else ""
        lead = (f"All {len(members)} failing cases that raised an error raised this kind{at}"
                if len(members) > 1 else f"The failing case raised this kind of error{at}")
        found.append(symptom(name, f"{lead}: {words}",
                             [r.index for r, _ in members]))
    return found


# ---- which function of a lesson is wrong ----

def function_symptoms(lesson, results, passing):
    """In a lesson with several functions: every failing case calls one function, and the cases
    of the others pass; or that function is still the stub."""
    functions = lesson.spec.functions
    if len(functions) < 2 or not passing:
        return None
    called = [{c.fn for c in lesson.cases[r.index].calls} for r in results]
    wrong = set().union(*called)
    if len(wrong) != 1:
        return None
    fn, = wrong
    right = sorted({c.fn for i in passing for c in lesson.cases[i].calls} - {fn},
                   key=functions.index if all(f in functions for f in functions) else None)
    right = [f for f in functions if f in right]
    if not right:
        return None
    own = [i for i, c in enumerate(lesson.cases) if {x.fn for x in c.calls} == {fn}]
    cases = [r.index for r in results]
    if all(r.outcome.status == "error" and r.outcome.error["type"] == "NotImplementedError"
           for r in results):
        return symptom("unfinished", (
            f"{fn} still raises NotImplementedError on every case that calls it, while "
            f"{', '.join(right)} pass{'es' if len(right) == 1 else ''}: {fn} is not written yet "
            "(replace its `raise NotImplementedError` with your code)."), cases)
    share = (f"every case of {fn} fails" if set(own) <= set(cases) else
             f"{len(results)} of the {len(own)} cases of {fn} fail{'s' if len(results) == 1 else ''}")
    uses = (f" (if {fn} calls them, look at what it passes them and does with what they return)"
            if functions.index(fn) > functions.index(right[0]) else "")
    return symptom("function", (
        f"The mistake is in {fn}: {share}, and every case of {', '.join(right)} "
        f"passes{uses}."), cases)



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


def explain(lesson, case_results, failing, explained, source=None):
    """Symptoms for the failing cases that no known mistake explains, best evidence first: where
    the mistake is (a part or a function), then what the failures share (an in-place change, a
    kind of exception, a relation of the values to the expected ones), then which cases fail."""
    rest = sorted(failing - explained)
    if not rest:
        return []
    results = [case_results[i] for i in rest]
    passing = {i for i in range(len(case_results)) if i not in failing}
    tol = (lesson.spec.rtol, lesson.spec.atol)
    case_traits = {i: tr.traits(c, lesson.reference_source) for i, c in enumerate(lesson.cases)}
    where = (part_symptoms(lesson.cases, results, passing)
             or function_symptoms(lesson, results, passing))
    found = [where] if where else []
    mutated = mutation_symptom(results)
    if mutated:
        return found + [mutated]
    slip = variants.variant_symptom(lesson, results, passing, lambda i: case_results[i].expected)
    if slip:
        (kind_, words), cases = slip
        return found + [symptom(kind_, f"{every(results)} your answer is {words}.", cases)]
    found += error_symptoms(lesson, results, passing)
    ok = [r for r in results if r.outcome.status == "ok"]
    value = value_symptoms(ok, tol, case_traits, source, lesson) if ok else None
    if value:
        found.append(value)
    if not value:
        eps = eps_symptom(lesson, results, tol, source)
        if eps:
            found.append(eps)
    covered = {i for d in found if d is not where for i in d.cases}
    if not covered >= set(rest):
        confined = confined_symptoms(lesson, results, passing, case_traits)
        if confined:
            found.append(confined)
    return found
