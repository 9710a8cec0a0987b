"""What sets some cases apart from the others: traits of a case's inputs and calls.

A failure confined to the cases that share one trait (and to no other case) points at the step
that trait exercises: large values, -inf, a parameter passed other than its default, an optional
argument left out, inputs with more axes or more rows, or what the author marked on the case.
"""
import ast
from functools import lru_cache

import numpy as np

from grader.judge.compare import as_array


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


@lru_cache(maxsize=64)
def defaults(source):
    """{function: {parameter: default}} for the top-level functions of the reference whose
    defaults are literals."""
    found = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        args = node.args.posonlyargs + node.args.args
        names = [a.arg for a in args]
        values = {}
        for a, d in zip(args[len(args) - len(node.args.defaults):], node.args.defaults):
            try:
                values[a.arg] = ast.literal_eval(d)
            except ValueError:
                pass
        for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults):
            if d is not None:
                try:
                    values[a.arg] = ast.literal_eval(d)
                except ValueError:
                    pass
        found[node.name] = (names, values)
    return found


def is_default(value, default):
    if default is None or value is None:
        return value is default
    if isinstance(value, (np.ndarray, list, tuple, dict)) or hasattr(value, "shape"):
        return False
    try:
        return bool(value == default) and type(value) is not bool or value is default
    except Exception:
        return False


def param_traits(case, source):
    """Traits of the calls' optional parameters: passed other than the default, or left out."""
    found = {}
    table = defaults(source)
    for c in case.calls:
        if c.fn not in table:
            continue
        names, values = table[c.fn]
        given = dict(zip(names, c.args))
        given.update(c.kwargs)
        for name, default in values.items():
            shown = repr(default)
            if name in given and not is_default(given[name], default):
                found[("sets", c.fn, name)] = (
                    f"the cases that pass `{name}` to {c.fn} with a value other than its default "
                    f"({shown})",
                    f"Every case that leaves `{name}` at {shown} passes: the difference is in what "
                    f"your code does with `{name}`. Check that the value given is the one used (not "
                    "a fixed value written in its place, nor a default that differs), that it is "
                    "passed on to any helper, and that it is applied the way the lesson describes.")
            else:
                found[("default", c.fn, name)] = (
                    f"the cases that leave `{name}` of {c.fn} at its default ({shown})",
                    f"Every case that passes its own `{name}` passes: check what your code does "
                    f"when `{name}` is {shown} (a default of another value, or a None that must be "
                    "replaced before use).")
    return found


def value_traits(case):
    found = {}
    for c in case.calls:
        for a in arrays_in((c.args, c.kwargs)):
            if a.dtype.kind != "f" or a.size == 0:
                continue
            finite = a[np.isfinite(a)]
            if finite.size and np.max(np.abs(finite)) >= 100:
                found["large"] = (
                    "the cases whose inputs hold large values (100 or more)",
                    "An exponential of a large number overflows (exp(710) is already inf), and inf - "
                    "inf or inf / inf is NaN: rewrite the step so it never exponentiates a large "
                    "positive number (subtract the maximum first, or pick the branch of the formula "
                    "by sign).")
            if np.isneginf(a).any():
                found["-inf"] = (
                    "the cases whose inputs hold -inf",
                    "-inf - (-inf) and 0 * inf are NaN: check what your code does with a row or "
                    "entry of -inf (a masked position) before and after the softmax or maximum.")
            if np.isnan(a).any():
                found["nan"] = ("the cases whose inputs hold NaN",
                                "NaN must pass through as the lesson describes.")
    for c in case.calls:
        arrays = [a for a in c.args if isinstance(a, np.ndarray) and a.ndim >= 2]
        if len({a.ndim for a in arrays}) == 1 and len({a.shape[-2] for a in arrays}) > 1:
            found["lengths"] = (
                "the cases whose input arrays differ in length along axis -2 (such as fewer "
                "queries than keys)",
                "Every case whose arrays have equal lengths there passes: your code treats those "
                "lengths as equal somewhere (a length taken from the wrong array, a square mask "
                "or matrix); take each length from its own array and line them up as the lesson "
                "describes.")
    if case.float_errors:
        found["float-errors"] = (
            "the cases that run with numpy's floating-point warnings raised as errors",
            "Some step overflows, divides by zero or makes NaN on the way, even if the final answer "
            "would come out right; compute it so no intermediate overflows.")
    for mark in case.traits:
        found[("marked", mark)] = (f"the cases with {mark}", "")
    return found


def traits(case, source):
    return {**value_traits(case), **param_traits(case, source)}


def primary(case):
    """The first array among the first call's arguments (the input the case is about)."""
    for a in arrays_in(case.calls[0].args):
        if a.ndim:
            return a
    return None


_ROWWISE = {}


def rowwise(lesson):
    """Whether the reference treats the rows of its main input independently: on one of the
    lesson's multi-row cases, the last row alone gives the last row of the full answer. (Attention
    with a causal mask, or anything that mixes rows, does not.)"""
    key = (lesson.id, lesson.reference_source)
    if key not in _ROWWISE:
        _ROWWISE[key] = rows_independent(lesson)
    return _ROWWISE[key]


def rows_independent(lesson):
    from dataclasses import replace
    from grader.judge import trusted
    from .relations import leaves, same
    for case, expected in zip(lesson.cases, lesson.expected):
        c = case.calls[0]
        if (len(case.calls) != 1 or case.check or case.raises or not c.args
                or not isinstance(c.args[0], np.ndarray) or c.args[0].ndim < 2
                or c.args[0].shape[-2] < 2 or expected.status != "ok"):
            continue
        x = c.args[0]
        last = replace(case, calls=(replace(c, args=(x[..., -1:, :].copy(),) + tuple(c.args[1:])),))
        try:
            got, = trusted.run(lesson.namespace(), [last])
        except Exception:
            return False
        if got.status != "ok":
            return False
        full = [a for _, a in leaves(expected.outputs[0])]
        part = [a for _, a in leaves(got.outputs[0])]
        if len(full) != len(part) or any(a is None or b is None for a, b in zip(full, part)):
            return False
        for a, b in zip(full, part):
            if a.ndim < 2 or a.shape[-2] != x.shape[-2] or not same(
                    a[..., -1:, :].astype(float), b.astype(float), lesson.spec.rtol, lesson.spec.atol):
                return False
        return True
    return False


def smallest_row_variance(case):
    """The smallest variance of a row (along the last axis) of the main input, or None."""
    x = primary(case)
    if x is None or x.dtype.kind != "f" or not np.isfinite(x).all() or x.shape[-1] < 2:
        return None
    return float(np.min(np.var(x.reshape(-1, x.shape[-1]), axis=1)))


def separations(failing_cases, passing_cases, rows_apart=True):
    """(key, which, why) for a size of the main input that splits failing from passing cases."""
    measures = {
        "ndim": (lambda a: a.ndim, "axes"),
        "rows": (lambda a: int(np.prod(a.shape[:-1])), "rows (vectors along the last axis)"),
    }
    out = []
    for key, (measure, unit) in measures.items():
        f = [primary(c) for c in failing_cases]
        p = [primary(c) for c in passing_cases]
        if any(a is None for a in f + p):
            continue
        fv, pv = [measure(a) for a in f], [measure(a) for a in p]
        if min(fv) > max(pv):
            k = min(fv)
            if key == "rows" and max(pv) == 1 and rows_apart:
                out.append((key, "the cases whose input has more than one row", (
                    "Every case with a single row passes: the rows influence each other in your "
                    "code. Look for a reduction over the wrong axis or over all axes (reduce over "
                    "the last axis only, `axis=-1, keepdims=True`), or a transpose that is invisible "
                    "on one row.")))
            elif key == "ndim":
                out.append((key, f"the cases whose input has {k} or more axes", (
                    "Every case with fewer axes passes: your code assumes a fixed number of axes "
                    "(a transpose `.T` of all axes, an axis counted from the front such as `axis=1` "
                    "or `shape[0]`); count axes from the end (`-1`, `-2`) so leading batch axes "
                    "pass through.")))
        elif max(fv) < min(pv) and key == "ndim":
            k = max(fv)
            out.append((key, f"the cases whose input has only {k} ax{'i' if k == 1 else 'e'}s", (
                "Every case with more axes passes: your code assumes at least one leading axis "
                "(indexing `x[0]`, `shape[1]`, a transpose of the last two axes of a 1-D array).")))
    return out
