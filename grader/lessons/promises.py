"""Promises: each sentence of a lesson's contract that its SPEC names is held by a case.

A promise quotes the Your turn (or Examples) section, names the cases that hold an answer to it,
and names what breaks it: a known mistake, or a small edit of the reference. The proof is
mechanical: each breaker must fail one of the promise's cases, on the lesson's own draw and on
every other seed verify draws.
"""
import re

from grader.judge import trusted
from grader.judge.verdict import judge

from .authoring import Edit
from .regions import solution_lines


def plain(text):
    """Prose as it is compared: no backticks, emphasis or line breaks, in lower case."""
    return " ".join(re.sub(r"[`*]", "", text).split()).lower()


def edited(source, change):
    """`source` with the edit made; a ValueError says why it cannot be made."""
    if source.count(change.old) != 1:
        raise ValueError(f"the reference holds `{change.old}` {source.count(change.old)} times, "
                         "not once")
    first = source.count("\n", 0, source.index(change.old)) + 1
    inside = solution_lines(source)
    if not all(n in inside for n in range(first, first + change.old.count("\n") + 1)):
        raise ValueError(f"`{change.old}` is not inside a solution region")
    return source.replace(change.old, change.new)


def failing(lesson, breaker, table):
    """The indices of the cases `breaker` (a mistake's id or an Edit) fails, or None for an id
    that names no mistake; a ValueError says why an edit cannot run."""
    if not isinstance(breaker, Edit):
        return table.get(breaker)
    source = edited(lesson.reference_source, breaker)
    try:
        ns = lesson.namespace(source=source)
    except Exception as exc:
        raise ValueError(f"the edited reference does not load: {type(exc).__name__}: {exc}") \
            from None
    outcomes = trusted.run(ns, lesson.cases)
    return {i for i, (c, o, e) in enumerate(zip(lesson.cases, outcomes, lesson.expected))
            if not judge(c, o, e, lesson.spec).passed}


def named(breaker):
    return f"the edit `{breaker.old}` -> `{breaker.new}`" if isinstance(breaker, Edit) \
        else f"mistake '{breaker}'"


def check(lesson, own_seed=True):
    """Problems with a lesson's promises, as sentences; with `own_seed`, also how they are
    written (quoted from the contract, naming real cases and something that breaks them)."""
    promises = lesson.spec.promises
    if own_seed and not promises:
        return ["SPEC names no promises: list what Your turn promises, each with the cases that "
                "hold it and a mistake or edit that breaks it (see Promise in authoring.py)"]
    contract = plain(lesson.prose.sections["Your turn"] + "\n" + lesson.prose.sections["Examples"])
    index = {c.name: i for i, c in enumerate(lesson.cases)}
    table = {m.id: fails for m, _, fails in lesson.mistake_table}
    problems = []
    for p in promises:
        what = f"promise '{p.says}'"
        if own_seed:
            if plain(p.says) not in contract:
                problems.append(f"{what} is not said in Your turn or Examples (quote it)")
            unknown = [n for n in p.cases if n not in index]
            if unknown or not p.cases:
                problems.append(f"{what} names no case" if not p.cases else
                                f"{what} names cases the lesson lacks: {', '.join(unknown)}")
            if not p.broken_by:
                problems.append(f"{what} names nothing that breaks it: name a mistake or an "
                                "edit of the reference that its cases fail")
        held = {index[n] for n in p.cases if n in index}
        for breaker in p.broken_by if held else ():
            try:
                fails = failing(lesson, breaker, table)
            except ValueError as exc:
                problems.append(f"{what}: {named(breaker)} cannot be made: {exc}")
                continue
            if fails is None:
                problems.append(f"{what} is broken by '{breaker}', which mistakes.py lacks")
            elif not fails & held:
                problems.append(f"{what}: {named(breaker)} passes every case that should hold "
                                f"it ({', '.join(p.cases)})")
    return problems
