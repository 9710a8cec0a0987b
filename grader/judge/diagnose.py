"""Recognise known mistakes: a learner whose answers match a mistake's wherever they fail."""
from dataclasses import dataclass

from . import trusted
from .verdict import judge, same_behaviour


@dataclass(frozen=True)
class Diagnosis:
    mistake: str
    message: str
    hint: int = None
    cases: frozenset = frozenset()   # the learner's failing cases it accounts for

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
    there, and at least one of the learner's failures is such a case.
    """
    if not failing:
        return []
    found = []
    for m, theirs, fails in lesson.mistake_table:
        if not fails or not fails <= failing:
            continue
        if all(same_behaviour(outcomes[i], theirs[i], lesson.spec) for i in fails):
            found.append(Diagnosis(m.id, m.message, m.hint, frozenset(fails)))
    return sorted(found, key=lambda d: -d.explains)


def distinct(diagnoses):
    """The diagnoses worth showing: the best, then any that explain failures the ones before do not."""
    shown, covered = [], set()
    for d in diagnoses:
        if not d.cases <= covered:
            shown.append(d)
            covered |= d.cases
    return shown
