"""Symptoms of where the learner's values sit: the expected numbers transposed, squeezed, reshaped
or rearranged, one output reordered, the input returned unchanged, only the first batch item right,
an input changed in place."""
import numpy as np

from grader.display import ordinal
from . import relations as rel, traits as tr
from .evidence import every, symptom


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
            what = (returned_part(path) if path else "the output")
            return symptom("rearranged-part", (
                f"{every(results)} {what} holds exactly the expected numbers, only arranged "
                "differently (e.g. new rows before old ones, or along another axis): the values "
                "are right and their order is wrong (the other values may follow from it). Check the "
                "order of the pieces you join and the axis you join them on."),
                [r.index for r in results])
    return None


def returned_part(path):
    """"the second returned value['k']" for the path (1, "'k'") of a leaf in a case's output."""
    head, rest = (path[0], path[1:]) if isinstance(path[0], int) else (None, path)
    where = f"the {ordinal(head)} returned value" if head is not None else "the output"
    return where + "".join(f"[{p}]" for p in rest)


def returns_input_symptom(lesson, results, tol):
    """On every failing case the answer is one of the call's own inputs, unchanged."""
    table = tr.defaults(lesson.reference_source)
    named, telling = set(), 0
    for r in results:
        both = rel.answers(r)
        if both is None or len(both[1]) != 1:
            return None
        call, out = lesson.cases[r.index].calls[0], both[1][0]
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


def mutation_symptom(results):
    """The learner's function changed its inputs in place on every failing case."""
    if not all(r.outcome.status == "ok" and r.outcome.mutated for r in results):
        return None
    return symptom("in-place", (
        "On every failing case your function changed an input array in place (`x -= m`, "
        "`x[...] = ...`, `x *= ...`, an `out=` argument), so the caller's data is altered. Compute "
        "into a new array instead (`x = x - m`)."), [r.index for r in results])
