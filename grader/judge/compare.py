"""Compare a learner's answer with the reference's, and say what differs in plain words.

Both sides may be any value the wire decodes (numbers, strings, None, lists, tuples and dicts of
them, arrays and tensors of any supported dtype and shape, and mixtures); a comparison always ends
in None (the same) or a sentence, never an exception.
"""
import numpy as np

from grader.display import number, ordinal
from grader.judge import budget
from grader.runner.child.wire import Tensor

KINDS = {list: "a nested list", tuple: "a tuple", dict: "a dict", str: "a string",
         type(None): "None", bool: "a bool"}
PLAIN_NUMBERS = {float, int}     # exactly these types (a bool is no number here)
MAX_QUOTED = 200       # characters of a string (or a dict's keys) a message quotes
DIFFER = "the values differ"    # all `compare` says of two tables of numbers when not explaining


def quoted(value):
    """repr(value), cut short: an answer's strings are the learner's, of any length."""
    text = repr(value) if not isinstance(value, str) or len(value) <= MAX_QUOTED else (
        repr(value[:MAX_QUOTED]) + "...")
    return text if len(text) <= 2 * MAX_QUOTED else text[:2 * MAX_QUOTED] + "..."


def kind(value):
    if isinstance(value, Tensor):
        return "a torch tensor"
    if isinstance(value, np.ndarray):
        return "a number" if value.ndim == 0 and value.dtype.kind != "b" else (
            "a bool" if value.ndim == 0 else "a numpy array")
    if isinstance(value, (bool, np.bool_)):
        return "a bool"
    if isinstance(value, (int, float, np.number)):
        return "a number"
    return KINDS.get(type(value), type(value).__name__)


def type_advice(expected, got):
    if expected == "a nested list" and got in ("a torch tensor", "a numpy array"):
        return "; call .tolist() on the result"
    if expected == "a numpy array" and got == "a nested list":
        return "; build it with numpy operations (or np.asarray)"
    if expected == "a numpy array" and got == "a torch tensor":
        return "; this lesson works in numpy"
    if expected == "a torch tensor" and got in ("a numpy array", "a nested list"):
        return "; return a torch tensor (torch.as_tensor, or keep the computation in torch)"
    return ""


def leaf_problem(value, at=()):
    """Why a nested list is not a table of numbers (the first offending item), or None."""
    if isinstance(value, list):
        if PLAIN_NUMBERS.issuperset(map(type, value)):      # a row of numbers: the common case
            return None
        for i, item in enumerate(value):
            problem = leaf_problem(item, at + (i,))
            if problem:
                return problem
        return None
    if isinstance(value, (Tensor, np.ndarray)) and np.ndim(value.array if isinstance(value, Tensor)
                                                            else value):
        what = "torch tensors" if isinstance(value, Tensor) else "numpy arrays"
        return (f"your list holds {what} (the first at {where(at)}): convert the whole result "
                f"with .tolist(), not list(...)")
    if kind(value) != "a number":
        return f"your nested list holds {kind(value)} at {where(at)} where a number belongs"
    return None


def as_array(value):
    """Numeric values as a bool, int or float array, or a sentence saying why they are not."""
    if isinstance(value, Tensor):
        return value.array
    if isinstance(value, np.ndarray):
        return value
    problem = leaf_problem(value)
    if problem:
        return problem
    try:
        arr = np.array(value, dtype=np.float64 if isinstance(value, list) and not value else None)
    except (ValueError, TypeError, OverflowError):
        return "your nested list is ragged: its rows have different lengths"
    if arr.dtype.kind not in "biuf":
        return "your nested list holds something other than numbers"
    return arr


def pair(expected, got):
    """Both numbers to 6 significant digits, or to as many as it takes to tell them apart."""
    for digits in (6, 9, 12, 17):
        e, g = f"{expected:.{digits}g}", f"{got:.{digits}g}"
        if e != g:
            break
    return (number(expected), number(got)) if digits == 6 else (e, g)


def where(index):
    return "[" + ", ".join(str(int(i)) for i in index) + "]" if len(index) else "the value"


def compare_arrays(expected, got, rtol, atol, explain=True):
    if expected.shape != got.shape:
        note = " (the transpose of the expected shape)" if got.shape == expected.shape[::-1] else ""
        return f"expected shape {tuple(expected.shape)}, got shape {tuple(got.shape)}{note}"
    if expected.dtype.kind == "f" and got.dtype.kind in "biu":
        return f"expected floating-point values, got integers ({got.dtype})"
    if expected.dtype == np.float64 and got.dtype.kind == "f" and got.dtype.itemsize < 8:
        return (f"expected float64 values, got {got.dtype}: the lesson computes in float64, and "
                f"{got.dtype} keeps only about {7 if got.dtype == np.float32 else 3} significant digits")
    if expected.dtype.kind == "b" or got.dtype.kind == "b":
        if expected.dtype.kind != got.dtype.kind:
            return f"expected {expected.dtype} values, got {got.dtype}"
        bad = np.argwhere(expected != got)
        return None if bad.size == 0 else (
            f"{len(bad)} of {expected.size} entries differ; first at {where(bad[0])}: "
            f"expected {expected[tuple(bad[0])]}, got {got[tuple(bad[0])]}")
    e, g = np.asarray(expected, np.float64), np.asarray(got, np.float64)
    with np.errstate(all="ignore"):     # close everywhere, with no NaN or infinity: the usual case
        if (np.abs(g - e) <= atol + rtol * np.abs(e)).all() and np.isfinite(e).all():
            return None
        if not explain:     # NaN only where NaN is expected, the rest close: the same test, at once
            return None if np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True).all() else DIFFER
    nan_e, nan_g = np.isnan(e), np.isnan(g)
    if (nan_g & ~nan_e).any():
        idx = np.argwhere(nan_g & ~nan_e)
        return (f"your answer has NaN at {where(idx[0])} where {number(e[tuple(idx[0])])} was "
                f"expected ({len(idx)} unexpected NaN in all)")
    if (nan_e & ~nan_g).any():
        idx = np.argwhere(nan_e & ~nan_g)[0]
        return f"expected NaN at {where(idx)}, got {number(g[tuple(idx)])}"
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
        if close.all():
            return None
        diff = np.where(close, 0.0, np.abs(g - e))
    diff = np.where(np.isnan(diff), np.inf, diff)
    worst = np.unravel_index(np.argmax(diff), diff.shape)
    count = int((~close).sum())
    lead = "the value differs" if e.ndim == 0 else f"{count} of {e.size} values differ"
    at = "" if e.ndim == 0 else f"; the largest difference is at {where(worst)}"
    note = (f" (your array is {got.dtype}; the lesson computes in float64)"
            if got.dtype == np.float32 and expected.dtype == np.float64 else "")
    shown_e, shown_g = pair(e[worst], g[worst])
    return f"{lead}{at}: expected {shown_e}, got {shown_g}{note}"


def compare_items(expected, got, rtol, atol, label, explain=True):
    """Element by element, for two lists that are not tables of numbers (mixtures, ragged)."""
    if len(expected) != len(got):
        return f"expected {len(expected)} items, got {len(got)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        budget.check()
        message = compare(e, g, rtol, atol, explain)
        if message:
            return f"{label(i)}: {message}"
    return None


def kind_problem(expected, got):
    """Why `got` is not even the kind of value `expected` is (numbers where numbers belong), or None.
    A lesson's own check sees only answers of the right kind: it may convert what it is given (a
    string of digits converts to a number) and must not take that for an answer."""
    ek, gk = kind(expected), kind(got)
    if ek != gk:
        return f"expected {ek}, got {gk}{type_advice(ek, gk)}"
    if isinstance(expected, (tuple, dict)):
        if len(expected) != len(got) or (isinstance(expected, dict) and expected.keys() != got.keys()):
            return compare(expected, got, 0, 0)
        pairs = zip(expected, got) if isinstance(expected, tuple) else (
            (expected[k], got[k]) for k in expected)
        return next(filter(None, (kind_problem(e, g) for e, g in pairs)), None)
    e = as_array(expected) if isinstance(expected, list) else None
    if e is not None and not isinstance(e, str):
        g = as_array(got)
        if isinstance(g, str):
            return g
        if e.dtype.kind == "f" and g.dtype.kind in "biu":
            return f"expected floating-point values, got {g.dtype}"
    return None


def compare(expected, got, rtol, atol, explain=True):
    """None when `got` matches `expected` within tolerance, else a message saying how it differs
    (without `explain`, where two tables of numbers differ in their values, only that they do)."""
    ek, gk = kind(expected), kind(got)
    if ek != gk:
        return f"expected {ek}, got {gk}{type_advice(ek, gk)}"
    if isinstance(expected, tuple):
        if len(expected) != len(got):
            return f"expected {len(expected)} values, got {len(got)}"
        return compare_items(expected, got, rtol, atol,
                             lambda i: f"in the {ordinal(i)} returned value", explain)
    if isinstance(expected, dict):
        if expected.keys() != got.keys():
            return f"expected the keys {sorted(expected)}, got {quoted([k[:50] for k in sorted(got)[:20]])}"
        for k in expected:
            message = compare(expected[k], got[k], rtol, atol, explain)
            if message:
                return f"in {k!r}: {message}"
        return None
    if ek in ("a string", "None", "a bool"):
        return None if bool(expected == got) else f"expected {quoted(expected)}, got {quoted(got)}"
    e, g = as_array(expected), as_array(got)
    if isinstance(e, str):   # two answers under test, neither a table of numbers: item by item
        if isinstance(g, str):
            return compare_items(expected, got, rtol, atol, lambda i: f"at [{i}]", explain)
        return e
    if isinstance(g, str):
        return g
    return compare_arrays(e, g, rtol, atol, explain)


def agrees(expected, got, rtol, atol):
    """Whether `compare` finds `got` matches `expected` (two answers compared with each other)."""
    return compare(expected, got, rtol, atol, explain=False) is None
