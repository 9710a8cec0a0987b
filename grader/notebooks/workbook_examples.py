"""Check an answer against a lesson's printed example, on the learner's own machine.

`grader export nbgrader` puts this file, as it is, next to the notebooks of every assignment. It
holds no lesson: each example cell passes the learner's value and the text the lesson prints for
it (arrays as `array([...])`, tensors as `tensor([...])`, numbers to 6 significant digits). It needs
numpy only (and torch for a lesson that returns tensors). The grader's own check, on these examples
and on the hidden cases, runs when the work is graded.
"""
import math

import numpy as np

RTOL = 1e-5         # what 6 significant digits can tell apart
ATOL = 1e-12
SHOWN = 300         # characters of the learner's value shown in a message


class ExampleMismatch(AssertionError):
    """The answer differs from the example's value."""


class Shown:
    """An array or tensor as the example prints it."""

    def __init__(self, kind, values):
        self.kind, self.values = kind, values


def parse(shown):
    """The value an example prints, from its text."""
    names = {"array": lambda v: Shown("array", v), "tensor": lambda v: Shown("tensor", v),
             "inf": math.inf, "nan": math.nan}
    return eval(shown, {"__builtins__": {}}, names)     # the lesson's own text, never the learner's


def is_tensor(value):
    return type(value).__module__.startswith("torch") and hasattr(value, "detach")


def numbers_differ(got, want):
    """Why the numbers in `got` (any array-like) differ from `want` (nested lists), or None."""
    want = np.asarray(want)
    try:
        got = np.asarray(got)
    except (TypeError, ValueError):
        return "it is not an array of numbers"
    if got.shape != want.shape:
        return f"expected shape {want.shape}, got shape {got.shape}"
    if want.dtype == bool or got.dtype == bool:
        return None if np.array_equal(got, want) else "some entries differ"
    try:
        close = np.isclose(got.astype(float), want.astype(float), rtol=RTOL, atol=ATOL,
                           equal_nan=True)
    except (TypeError, ValueError):
        return "it is not an array of numbers"
    if close.all():
        return None
    if close.ndim == 0:
        return "the value differs"
    where = tuple(int(i) for i in np.argwhere(~close)[0])
    return f"{int((~close).sum())} of {close.size} entries differ (the first at {list(where)})"


def differs(got, want):
    """Why `got` is not the example's value `want` (as parse gives it), or None."""
    if isinstance(want, Shown):
        if want.kind == "tensor" and not is_tensor(got):
            return f"expected a torch tensor, got {type(got).__name__}"
        if want.kind == "array" and not isinstance(got, np.ndarray):
            return f"expected a numpy array, got {type(got).__name__}"
        return numbers_differ(got.detach().cpu().numpy() if is_tensor(got) else got, want.values)
    if isinstance(want, (bool, str, type(None))) or want is Ellipsis:
        return None if want is Ellipsis or got == want else f"expected {want!r}"
    if isinstance(want, (int, float)):
        scalar = isinstance(got, (int, float, np.number)) or (
            isinstance(got, np.ndarray) and got.ndim == 0)
        if not scalar or isinstance(got, bool):
            return f"expected a number, got {type(got).__name__}"
        return numbers_differ(got, want)
    if isinstance(want, (list, tuple)):
        if type(got) is not type(want):
            return f"expected a {type(want).__name__}, got {type(got).__name__}"
        if len(got) != len(want):
            return f"expected {len(want)} items, got {len(got)}"
        for i, (g, w) in enumerate(zip(got, want)):
            why = differs(g, w)
            if why:
                return f"item {i}: {why}"
        return None
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return f"expected a dict with keys {sorted(want)}"
        for key in want:
            why = differs(got[key], want[key])
            if why:
                return f"[{key!r}]: {why}"
        return None
    return None if got == want else f"expected {want!r}"


def check(value, shown):
    """Say that `value` matches, or raise ExampleMismatch saying how it differs from `shown`."""
    why = differs(value, parse(shown))
    if why:
        got = repr(value)
        got = got if len(got) <= SHOWN else got[:SHOWN] + " ..."
        raise ExampleMismatch(f"{why}\n  expected: {shown}\n  got:      {got}")
    print(f"Matches the example: {shown}")
