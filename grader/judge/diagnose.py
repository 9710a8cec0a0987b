"""Recognise known mistakes: a learner whose answers match a mistake's wherever they fail."""
from dataclasses import dataclass

from . import budget, trusted
from .verdict import judge, same_behaviour


@dataclass(frozen=True)
class Diagnosis:
    mistake: str
    message: str
    hint: int = None
    cases: frozenset = frozenset()   # the learner's failing cases it accounts for
    partial: bool = False            # the learner avoided some of the mistake's failures

    @property
    def explains(self):
        return len(self.cases)

    @property
    def label(self):
        """How feedback introduces it: a known mistake is the reason, a symptom a likely cause."""
        return "Likely cause" if self.mistake.startswith("symptom:") else "Why"


def mistake_failures(lesson):
    """For each known mistake: (mistake, its outcomes, the indices of the cases it fails)."""
    expected = lesson.expected
    table = []
    for m, ns in lesson.mistakes:
        outcomes = trusted.run(ns, lesson.cases)
        fails = {i for i, (c, o, e) in enumerate(zip(lesson.cases, outcomes, expected))
                 if not judge(c, o, e, lesson.spec).passed}
        table.append((m, outcomes, fails))
    return table


def diagnose(lesson, outcomes, failing):
    """The mistakes that explain the learner's failures, best first.

    A mistake matches when the learner fails every case it fails, behaving exactly as it does
    there. It also matches a learner who made it but guarded against some of its consequences:
    one who fails only cases the mistake fails, behaving exactly as it does on every one, and on
    at least one of them with the same wrong values (an error alone is too common to be a sign).
    Full matches come before partial ones.
    """
    if not failing:
        return []
    with budget.excluded():         # the grader's own work, once per lesson
        table = lesson.mistake_table
    found = []
    for m, theirs, fails in table:
        budget.check()
        if not fails:
            continue
        if fails <= failing:
            if all(same_behaviour(outcomes[i], theirs[i], lesson.spec) for i in fails):
                found.append(Diagnosis(m.id, m.message, m.hint, frozenset(fails)))
        elif failing < fails and all(same_behaviour(outcomes[i], theirs[i], lesson.spec)
                                     for i in failing) \
                and any(outcomes[i].status == "ok" for i in failing):
            found.append(Diagnosis(m.id, m.message, m.hint, frozenset(failing), partial=True))
    return sorted(found, key=lambda d: (-d.explains, d.partial))


def distinct(diagnoses):
    """The diagnoses worth showing: the best, then any that explain failures the ones before do not."""
    shown, covered = [], set()
    for d in diagnoses:
        if not d.cases <= covered:
            shown.append(d)
            covered |= d.cases
    return shown
