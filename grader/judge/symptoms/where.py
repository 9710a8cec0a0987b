"""Symptoms of where failures sit: which part or which function of a lesson is wrong, and failures
confined to exactly the cases that share one trait of their inputs."""
from dataclasses import replace

import numpy as np

from grader.judge.verdict import same_behaviour
from . import relations as rel, traits as tr
from .evidence import symptom


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
    every_case = {f: [i for i, c in enumerate(lesson.cases) if f in {x.fn for x in c.calls}]
                  for f in functions if f != fn}
    right = [f for f, idx in every_case.items() if idx and all(i in passing for i in idx)]
    if not right:       # a function whose failures another diagnosis explains is not "right"
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

def part_symptoms(lesson, results, passing):
    """Where the author marked cases that run one part alone: the parts that are right and wrong,
    and, where a known slip of the wrong part gives exactly the learner's answers on its cases,
    which computation it is (the reference rerun with that part replaced by the slip)."""
    parts = {}
    for i, c in enumerate(lesson.cases):
        if c.part:
            parts.setdefault(c.part, []).append(i)
    failing = {r.index for r in results}
    right = [p for p, idx in parts.items() if all(i in passing for i in idx)]
    wrong = [p for p, idx in parts.items() if all(i in failing for i in idx)]
    if not (right and wrong):
        return None
    cases = [i for p in wrong for i in parts[p]]
    found = symptom("part", (
        f"Every case that runs {' and '.join(right)} alone passes, and every case that runs "
        f"{' and '.join(wrong)} alone fails: the difference is in {' and '.join(wrong)}."), cases)
    slip = part_slip(lesson, {r.index: r.outcome for r in results}, cases)
    if slip is not None:
        return replace(found, hint=slip.hint, message=(
            f"{found.message} There your answers are exactly those of a known slip in it (other "
            f"cases may differ for another reason as well): {first_sentence(slip.message)}"))
    return replace(found, message=found.message + part_functions(lesson, cases, failing, passing))


def part_functions(lesson, cases, failing, passing):
    """Among the lesson's other functions, the one whose own cases all fail (and those whose own
    cases all pass), as a sentence, or "" when that does not single one out."""
    running = {c.fn for i in cases for c in lesson.cases[i].calls}
    own = {f: [i for i, c in enumerate(lesson.cases) if {x.fn for x in c.calls} == {f}]
           for f in lesson.spec.functions if f not in running}
    bad = [f for f, idx in own.items() if idx and all(i in failing for i in idx)]
    good = [f for f, idx in own.items() if idx and all(i in passing for i in idx)]
    if len(bad) != 1:
        return ""
    right = f", and every case of {', '.join(good)} passes" if good else ""
    return f" Every case of {bad[0]} fails as well{right}: start with {bad[0]}."


def part_slip(lesson, outcomes, cases):
    """The one known mistake that behaves as the learner does on every one of `cases` (and fails
    them), or None."""
    matches = [m for m, theirs, fails in lesson.mistake_table
               if set(cases) <= fails and all(same_behaviour(outcomes[i], theirs[i], lesson.spec)
                                              for i in cases)]
    return matches[0] if len(matches) == 1 else None


def first_sentence(text):
    """`text` up to its first "." or ";" followed by a blank or the end (a plain scan)."""
    for i, c in enumerate(text):
        if c in ".;" and (i + 1 == len(text) or text[i + 1].isspace()):
            return text[:i + 1]
    return text
