"""Slips between inputs: the reference run on the same cases with one input in place of another
(a copy-paste between projections), two inputs swapped (argument order, gamma and beta), or a
square weight transposed. A learner who behaves exactly as one such variant on every failing case,
and passes wherever the variant gives the expected answer, made that slip.
"""
from dataclasses import replace

import numpy as np

from grader.judge import budget, trusted
from .traits import defaults
from grader.judge.verdict import judge, same_behaviour

MOST = 40      # variants tried per answer


def is_array(value):
    return (isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.ndim >= 1) or (
        type(value).__module__.startswith("torch") and hasattr(value, "shape")
        and getattr(value, "is_floating_point", lambda: False)() and len(value.shape) >= 1)


def slots(call):
    """The paths of the float arrays among a call's inputs: (position or name,) or (..., key)."""
    for where, value in list(enumerate(call.args)) + list(call.kwargs.items()):
        if isinstance(value, dict):
            for key, v in value.items():
                if is_array(v):
                    yield (where, key)
        elif is_array(value):
            yield (where,)


def get(call, path):
    value = call.args[path[0]] if isinstance(path[0], int) else call.kwargs[path[0]]
    return value[path[1]] if len(path) > 1 else value


def put(call, path, new):
    where = path[0]
    old = call.args[where] if isinstance(where, int) else call.kwargs[where]
    value = {**old, path[1]: new} if len(path) > 1 else new
    if isinstance(where, int):
        return replace(call, args=call.args[:where] + (value,) + call.args[where + 1:])
    return replace(call, kwargs={**call.kwargs, where: value})


def label(call, path, names):
    where = path[0]
    base = names[where] if isinstance(where, int) and where < len(names) else str(where)
    return f'{base}["{path[1]}"]' if len(path) > 1 else base


def apply(variant, call):
    """The call with the variant's change, or None where the call lacks the same-shaped inputs."""
    kind, a, b = variant
    present = set(slots(call))
    if a not in present or (b is not None and b not in present):
        return None
    x = get(call, a)
    if kind == "transpose":
        return put(call, a, x.T.copy() if isinstance(x, np.ndarray) else x.T.clone())
    y = get(call, b)
    if tuple(x.shape) != tuple(y.shape):
        return None
    if kind == "copy":
        return put(call, a, y)
    return put(put(call, a, y), b, x)


def candidates(call):
    paths = list(slots(call))
    found = []
    for i, a in enumerate(paths):
        for b in paths[i + 1:]:
            if tuple(get(call, a).shape) == tuple(get(call, b).shape):
                found += [("copy", a, b), ("copy", b, a), ("swap", a, b)]
    for a in paths:
        x = get(call, a)
        if len(x.shape) == 2 and x.shape[0] == x.shape[1] > 1:
            found.append(("transpose", a, None))
    return found[:MOST]


def changed_case(variant, case):
    calls = [apply(variant, c) for c in case.calls]
    if any(c is None for c in calls):
        return None
    return replace(case, calls=tuple(calls))


def slipped(lesson, variant, index):
    """The reference's outcome on case `index` with `variant`'s slip (None where the case lacks
    the inputs it changes), computed once per lesson."""
    key = (variant, index)
    if key not in lesson.variant_outcomes:
        case = changed_case(variant, lesson.cases[index])
        lesson.variant_outcomes[key] = (None if case is None
                                        else trusted.run(lesson.namespace(), [case])[0])
    return lesson.variant_outcomes[key]


def describe(variant, call, names):
    kind, a, b = variant
    la = f"`{label(call, a, names)}`"
    if kind == "transpose":
        return "transposed-input", (f"the lesson's answer computed with {la} transposed: your code uses that square "
                "matrix the other way round (`W.T` where `W` belongs, or `W @ x` for `x @ W`); "
                "with a matrix that is not square this would have been a shape error")
    lb = f"`{label(call, b, names)}`"
    if kind == "copy":
        return "copied-input", (f"the lesson's answer computed with {lb} used in place of {la}: a copy-paste slip "
                f"(e.g. a projection written with the wrong weight); check which input each step "
                f"uses where {la} belongs")
    return "swapped-inputs", (f"the lesson's answer computed with {la} and {lb} swapped: the two are used in each "
            "other's place (argument order, or two similar inputs confused)")


def variant_symptom(lesson, results, passing, outcomes_of):
    """((name, words), cases) for an input slip that every failing case shows and no passing case refutes."""
    if not results or any(r.outcome.status not in ("ok", "error") for r in results):
        return None
    spec = lesson.spec
    first = lesson.cases[results[0].index]
    table = defaults(lesson.reference_source)
    for variant in candidates(first.calls[0]):
        budget.check()
        checked = []
        for r in results:
            theirs = slipped(lesson, variant, r.index)
            if theirs is None:
                break
            if theirs.status == "ok" and judge(lesson.cases[r.index], theirs, r.expected, spec).passed:
                break      # the slip makes no difference on this case: it cannot be why it fails
            if not same_behaviour(r.outcome, theirs, spec):
                break
            checked.append(r.index)
        if len(checked) != len(results):
            continue
        if any(theirs is not None and not judge(lesson.cases[i], theirs, outcomes_of(i), spec).passed
               for i in sorted(passing) for theirs in [slipped(lesson, variant, i)]):
            continue       # the slip would fail a case this answer passes
        call = first.calls[0]
        names = table.get(call.fn, ([], {}))[0]
        return describe(variant, call, names), checked
    return None
