"""The author's gate: prove every lesson sound, as rustlings proves every exercise."""
import itertools
import tempfile
from pathlib import Path

from . import build, marks, mutation, pointers, promises, regions, stated
from grader.notebooks import build as notebooks
from grader.runner.child import wire
from grader.judge.diagnose import diagnose
from grader.display import show
from grader.judge.grade import grade_file
from .lesson import example_scope
from grader.judge.verdict import judge, same_behaviour
from grader.runner.workers import Pool, preload_for

MIN_MISTAKES = 8
OTHER_SEEDS = (1, 2, 3)   # the cases drawn afresh: a mistake must not be caught by a lucky draw


def check_examples(lesson):
    """Every `>>>` example in the prose prints what the reference gives, to 6 significant digits."""
    problems = []
    for ex in lesson.prose.examples:
        ns = example_scope(ex, lesson.namespace())
        value = wire.decode(wire.encode(eval(ex.source, ns)))
        shown = show(value)
        if " ".join(shown.split()) != " ".join(ex.expected.split()):
            problems.append(f"example `{ex.source}` ({ex.section}) shows {ex.expected}, "
                            f"the reference gives {shown}")
    return problems


def check_reference(lesson):
    problems = []
    for case, out in zip(lesson.cases, lesson.expected):
        if out.status != "ok" and not case.raises:
            problems.append(f"the reference fails case '{case.name}' in-process: {out.error}")
        elif not judge(case, out, out, lesson.spec).passed:
            problems.append(f"the reference fails the check of case '{case.name}'")
        if case.hint not in (None, 1, 2, 3):
            problems.append(f"case '{case.name}' names hint {case.hint}; tiers are 1 to 3")
    return problems


def check_files(lesson, workdir, pool):
    """The reference passes and a fresh stub fails, both through a real child process."""
    problems = []
    ref = grade_file(lesson, lesson.folder / "solution.py", pool)
    if not ref.passed:
        failing = [f"{r.case.name}: {r.verdict.message}" for r in ref.cases if not r.verdict.passed]
        problems.append(f"the reference does not pass as a learner file: {ref.error or ''} "
                        f"{[v.message for v in ref.violations]} {failing}")
    stub = Path(workdir) / f"{lesson.id}.py"
    stub.write_text(regions.stub(lesson.reference_source))
    result = grade_file(lesson, stub, pool)
    passing = [r.case.name for r in result.cases if r.verdict.passed]
    if result.error or result.violations or passing:
        problems.append(f"the fresh stub should fail every case cleanly; it passes {passing}, "
                        f"error {result.error!r}, rules {[v.message for v in result.violations]}")
    return problems


def check_mistakes(lesson, own_seed=True):
    """Every mistake is caught and diagnosed as itself; with `own_seed`, also the catalogue's own
    rules (how many, messages, hint tiers, no two alike)."""
    problems = []
    table = lesson.mistake_table
    if own_seed and len(table) < MIN_MISTAKES:
        problems.append(f"{len(table)} known mistakes; a lesson needs at least {MIN_MISTAKES}")
    for m, outcomes, fails in table:
        if own_seed and not m.message:
            problems.append(f"mistake '{m.id}' has no message")
        if own_seed and m.hint not in (None, 1, 2, 3):
            problems.append(f"mistake '{m.id}' names hint {m.hint}; tiers are 1 to 3")
        if not fails:
            problems.append(f"mistake '{m.id}' passes every case: the cases cannot catch it")
            continue
        broken = next((o.error for o in outcomes if o.status == "error"
                       and o.error["type"] in ("NameError", "UnboundLocalError")), None)
        if broken:
            problems.append(f"mistake '{m.id}' is broken, not wrong: it raises {broken['type']}: "
                            f"{broken['message']} (a mistakes file sees only its own names, not "
                            "the reference's)")
            continue
        found = diagnose(lesson, outcomes, fails)
        if not found or found[0].mistake != m.id:
            problems.append(f"mistake '{m.id}' is diagnosed as {[d.mistake for d in found] or 'nothing'}")
        elif len(found) > 1 and found[1].explains == found[0].explains and not found[1].partial:
            problems.append(f"mistake '{m.id}' is diagnosed as itself and, as strongly, "
                            f"{found[1].mistake}")
    for (a, oa, _), (b, ob, _) in itertools.combinations(table if own_seed else [], 2):
        if all(same_behaviour(x, y, lesson.spec) for x, y in zip(oa, ob)):
            problems.append(f"mistakes '{a.id}' and '{b.id}' behave the same on every case")
    return problems


def check_other_seeds(lesson):
    """The reference passes, every mistake is caught as itself and every promise is held on cases
    drawn from other seeds."""
    problems = []
    for seed in OTHER_SEEDS:
        other = lesson.reseeded(seed)
        problems += [f"with the cases drawn from seed {seed}, {p}"
                     for p in check_reference(other) + check_mistakes(other, own_seed=False)
                     + promises.check(other, own_seed=False)]
    return problems


def verify_lesson(lesson, workdir, pool):
    """Every problem with one lesson, as sentences; an empty list means it is sound."""
    try:
        lesson.prose, lesson.cases  # parse and build first: later checks need both
    except Exception as exc:
        return [f"the lesson does not load: {type(exc).__name__}: {exc}"]
    problems = []
    for check in (check_examples, marks.check, check_reference, check_mistakes, promises.check,
                  check_other_seeds, pointers.check, stated.check):
        try:
            problems += check(lesson)
        except Exception as exc:
            problems.append(f"{check.__name__} failed: {type(exc).__name__}: {exc}")
    problems += check_files(lesson, workdir, pool)
    return problems


def verify(roadmap, only=None, jobs=1, mutants=True):
    """({lesson id: problems}, [mutation Tally]) for the given lessons (default: every written
    lesson), plus drift; with `mutants`, every lesson's mutants are graded too, on `jobs` workers."""
    lessons = [l for l in build.lessons(roadmap) if only is None or l.id in only]
    tallies = []
    with tempfile.TemporaryDirectory(prefix="verify-") as workdir, \
            Pool(size=jobs, preload=preload_for(lessons)) as pool:
        report = {}
        for lesson in lessons:
            report[lesson.id] = verify_lesson(lesson, workdir, pool)
            if mutants:
                try:
                    tallies.append(mutation.gate(lesson, pool, workdir, jobs))
                except Exception as exc:
                    report[lesson.id].append(f"the mutation gate failed: {type(exc).__name__}: {exc}")
                else:
                    report[lesson.id] += mutation.problems(tallies[-1])
    for rel in build.drift(roadmap):
        report.setdefault(rel.split("/")[0], []).append(
            f"exercises/{rel} is out of date with its source: run `make build`")
    for rel in notebooks.drift(roadmap):
        report.setdefault(rel.removesuffix(".ipynb"), []).append(
            f"notebooks/{rel} is out of date with its source: run `make build`")
    return report, tallies
