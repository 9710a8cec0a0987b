"""The rules a lesson's Your turn states, held against the rules its SPEC and roadmap enforce.

A lesson states its rules in Your turn in three forms, and `make verify` fails a lesson that states
one it does not enforce (or, for the first two, enforces one it does not state):
- "in numpy", "numpy alone" or "numpy only": the lesson is a numpy lesson (its framework in
  solutions/roadmap.toml), which allows nothing beyond numpy and the standard library;
- a requirement that starts "No loops": the SPEC's `no_loops`;
- a requirement clause that says "not allowed", or starts "Do not use" or "No `name`": each
  `name` in backticks in that clause is a library object the SPEC forbids (the name, or a part of
  its dotted path such as `optim` in `torch.optim`), written with the workbook's usual aliases
  (`np.`, `F.`, `nn.`).
"""
import re

from grader.judge import constraints

NUMPY = re.compile(r"\bin numpy\b|\bnumpy (alone|only)\b", re.I)
BULLET = re.compile(r"^- (.*(?:\n  .*)*)", re.M)
FORBIDS = re.compile(r"not allowed|^\s*do not use\b|^\s*no `", re.I)
NAME = re.compile(r"`([A-Za-z_][\w.]*)`")
ALIASES = {"np": "numpy", "F": "torch.nn.functional", "nn": "torch.nn"}


def requirements(text):
    """Each bullet of a section, on one line."""
    return [" ".join(b.split()) for b in BULLET.findall(text)]


def clauses(bullet):
    """A bullet's sentences, each split at its colons."""
    return [c for s in re.split(r"(?<=[.)])\s+(?=[A-Z`])", bullet) for c in s.split(": ")]


def stated(text):
    """(numpy alone, no loops, {names forbidden}) as a Your turn section states them."""
    bullets = requirements(text)
    loops = any(b.startswith("No loops") for b in bullets)
    names = {n for b in bullets for c in clauses(b) if FORBIDS.search(c) for n in NAME.findall(c)}
    return bool(NUMPY.search(text)), loops, names


def check(lesson):
    """Problems: a rule Your turn states that the lesson does not enforce, or the other way round."""
    text = lesson.prose.sections["Your turn"]
    numpy, loops, names = stated(text)
    spec, framework = lesson.spec, lesson.entry.framework
    rules = constraints.rules_of(spec, any(c.float_errors for c in lesson.cases), framework)
    problems = []
    if numpy != (framework == "numpy"):
        problems.append(
            f"Your turn {'says' if numpy else 'does not say'} the lesson is in numpy alone, and its "
            f"framework in solutions/roadmap.toml is {framework!r}: say \"in numpy\" exactly when "
            "the framework is numpy")
    if loops != spec.no_loops:
        problems.append(
            f"Your turn {'states' if loops else 'does not state'} \"No loops\" (a requirement "
            f"starting with those words), and its SPEC has no_loops={spec.no_loops}")
    for name in sorted(names):
        top, dot, rest = name.partition(".")
        path = ALIASES.get(top, top) + dot + rest
        if not rules.key_of(path) and not rules.library_refused(path):
            problems.append(f"Your turn forbids `{name}`, which the SPEC does not forbid: add it "
                            "(or the part of its path that matters) to SPEC.forbidden")
    return problems
