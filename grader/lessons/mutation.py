"""The mutation gate: every mutant of a lesson's reference is graded as a learner's file would be.

A mutant the cases fail is killed, and then either diagnosed (by a known mistake or a symptom) or
left bare. One that passes every case is run on fresh draws of the lesson's own hidden cases (other
seeds): if it still agrees with the reference everywhere it is equivalent (listed, not counted);
if a fresh draw tells it apart, it survives: the lesson lacks the case that draw found, and
`make verify` fails.
"""
import itertools
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from grader.judge.grade import grade_file, run_cases
from grader.judge.verdict import judge
from grader.runner import run
from grader.runner.workers import Pool, preload_for

from .corpus import classify
from .mutants import mutants

FRESH_SEEDS = tuple(range(101, 109))   # the draws that tell an equivalent mutant from a survivor
CAP = 120                              # mutants graded per lesson at most (see select)


@dataclass
class Fate:
    mutant: object
    kind: str              # "killed", "equivalent" or "surviving"
    explained: str = None  # for a killed one: "known", "symptom" or None (left bare)
    why: str = ""          # what failed: the first failing case, or the fresh case that told it apart


@dataclass
class Tally:
    lesson: str
    generated: int = 0                       # before the cap
    fates: list = field(default_factory=list)
    seconds: float = 0.0

    def count(self, kind, explained=...):
        return sum(f.kind == kind and (explained is ... or f.explained == explained)
                   for f in self.fates)

    @property
    def graded(self):
        return len(self.fates)

    @property
    def counted(self):
        """The mutants a case could kill: the equivalent ones are listed, not counted."""
        return self.graded - self.count("equivalent")

    def listed(self, kind, explained=...):
        return [f for f in self.fates if f.kind == kind and (explained is ... or f.explained == explained)]


def library(lesson):
    """The library a float32 cast or an added transpose is written with in this lesson."""
    return "torch" if "torch" in lesson.libraries else "numpy"


def select(found, cap):
    """At most `cap` mutants, the same ones every run: the rules take turns, each in line order,
    so that every kind of slip is tried in a lesson with many."""
    if cap is None or len(found) <= cap:
        return found
    by_rule = {}
    for m in found:
        by_rule.setdefault(m.rule, []).append(m)
    turns = itertools.chain.from_iterable(itertools.zip_longest(*by_rule.values()))
    chosen = [m for m in turns if m is not None][:cap]
    return sorted(chosen, key=lambda m: m.line)


def first_failure(result):
    if result.error:
        return result.error
    if result.violations:
        return f"breaks a rule: {result.violations[0].message}"
    bad = next(r for r in result.cases if not r.verdict.passed)
    return f"case '{bad.case.name}': {bad.verdict.message}"


class Gate:
    """Grades one lesson's mutants on a pool of warm workers, `jobs` at a time."""

    def __init__(self, lesson, pool, workdir, jobs):
        self.lesson, self.pool, self.jobs = lesson, pool, jobs
        self.folder = Path(workdir) / lesson.id
        self.folder.mkdir(parents=True, exist_ok=True)
        self.limits = run.Limits(case_seconds=lesson.spec.timeout)

    def path(self, number, mutant):
        path = self.folder / f"mutant_{number:03d}.py"
        path.write_text(mutant.source)
        return path

    def first_pass(self, numbered):
        number, mutant = numbered
        result = grade_file(self.lesson, self.path(number, mutant), self.pool, self.limits,
                            name="solution.py")
        if result.passed:
            return None
        return Fate(mutant, "killed", classify(result), first_failure(result))

    def fresh_draws(self):
        """Per fresh seed: its hidden cases and the reference's outcomes on them."""
        draws = []
        for seed in FRESH_SEEDS:
            other = self.lesson.reseeded(seed)
            pairs = [(c, e) for c, e in zip(other.cases, other.expected) if not c.public]
            draws.append((seed, [c for c, _ in pairs], [e for _, e in pairs]))
        return draws

    def told_apart(self, mutant, draws):
        """The first fresh case on which the mutant and the reference differ, in words, or None."""
        for seed, cases, expected in draws:
            outcomes = run_cases(self.pool, mutant.source, cases, self.limits, "solution.py").outcomes
            for case, got, want in zip(cases, outcomes, expected):
                verdict = judge(case, got, want, self.lesson.spec)
                if not verdict.passed:
                    return f"case '{case.name}' drawn from seed {seed}: {verdict.message}"
        return None

    def fates(self, found):
        self.lesson.prepare()
        with ThreadPoolExecutor(self.jobs) as threads:
            first = list(threads.map(self.first_pass, enumerate(found)))
            passing = [m for m, f in zip(found, first) if f is None]
            draws = self.fresh_draws() if passing else []
            second = dict(zip(passing, threads.map(lambda m: self.told_apart(m, draws), passing)))
        return [f if f is not None else
                Fate(m, "surviving", why=second[m]) if second[m] else Fate(m, "equivalent")
                for m, f in zip(found, first)]


def gate(lesson, pool, workdir, jobs=1, cap=CAP, rules=None):
    """The Tally of one lesson's mutants (only those of `rules`, when given)."""
    start = time.monotonic()
    found = [m for m in mutants(lesson.reference_source, library(lesson))
             if rules is None or m.rule in rules]
    tally = Tally(lesson.id, len(found))
    tally.fates = Gate(lesson, pool, workdir, jobs).fates(select(found, cap))
    tally.seconds = time.monotonic() - start
    return tally


def problems(tally):
    """Verify's sentences for a lesson's surviving mutants."""
    return [f"mutant {f.mutant.label} passes every case, but {f.why}: add a case that tells it "
            "from the reference" for f in tally.listed("surviving")]


def measure(lessons, jobs, cap=CAP):
    """A Tally per lesson, grading on `jobs` warm workers."""
    with tempfile.TemporaryDirectory(prefix="mutate-") as workdir, \
            Pool(size=jobs, preload=preload_for(lessons)) as pool:
        return [gate(lesson, pool, workdir, jobs, cap) for lesson in lessons]
