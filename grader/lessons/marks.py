"""The numbers a lesson's prose marks as computed (`477<!-- = expr -->`), checked against the
expression each one is marked with, to the digits it shows. In a marked code span that holds an
equation, `h = x + a = [2, 3]`, the value is what follows the last `=`."""
import math
import re

import numpy as np

from grader.display import show
from .lesson import example_scope
from .prose import NUMBER, Mark

WRITTEN = re.compile(rf"(?<![\w.])(?:{NUMBER}|-?inf|nan)(?![\w.])")


def numbers(value):
    """Every number in a value (arrays, tensors, lists, tuples, dict values), in reading order."""
    if isinstance(value, dict):
        return [n for v in value.values() for n in numbers(v)]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in numbers(v)]
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    return [float(n) for n in np.ravel(np.asarray(value, dtype=float))]


def agrees(text, computed):
    """Whether a written number is the computed one, rounded to the decimals it shows."""
    if text == "nan":
        return math.isnan(computed)
    if text.endswith("inf"):
        return float(text) == computed
    mantissa, _, exponent = text.lower().partition("e")
    unit = 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
    return abs(float(text) - computed) <= unit / 2 + 1e-12 * max(1.0, abs(computed))


def check(lesson):
    """A sentence for every marked number that its expression does not give. The marks run in
    order in one namespace, so a name one binds (`(h := x + a)`) serves the marks after it."""
    problems, found = [], lesson.prose.marks
    if not found:
        return problems
    # one scope for all the marks, with torch in it when any of them mentions torch
    scope = example_scope(Mark("", "", " ".join(m.source for m in found)), lesson.namespace())
    for mark in found:
        where = f"the marked number `{mark.shown}` ({mark.section}, `{mark.source}`)"
        try:
            computed = numbers(eval(mark.source, scope))
        except Exception as exc:
            problems.append(f"{where} cannot be computed: {type(exc).__name__}: {exc}")
            continue
        written = WRITTEN.findall(mark.shown.rpartition("=")[2])   # `h = x + a = [2, 3]`: the result
        if len(written) != len(computed) or not all(map(agrees, written, computed)):
            problems.append(f"{where} is wrong: the expression gives {show(computed)}")
    return problems
