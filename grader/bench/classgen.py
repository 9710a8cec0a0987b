"""A generated class for the benchmark: N learners x the chosen lessons, each file one of a few
kinds a real class hands in, with the score the grader should give it.

Kinds: the reference (right), a known mistake of the lesson rewritten as a standalone file (the
reference with the mistake's functions defined over it, plus the imports and helpers of the
mistakes file they need), the fresh stub, a file that does not parse, and a crash (the process
exits in the middle of every call). Which learner hands in which kind is drawn from a seed, so a
class of a given size is the same class every run.
"""
import ast
import builtins
import dis
import inspect
import random
from dataclasses import dataclass
from pathlib import Path

from grader.judge import constraints
from grader.lessons import regions

WEIGHTS = (("reference", 40), ("mistake", 40), ("stub", 15), ("syntax", 3), ("crash", 2))
SYNTAX = "\n\ndef broken(:\n    pass\n"
CRASH = "\n\nimport os as _os\n\n\ndef {name}(*args, **kwargs):\n    _os._exit(3)\n"


@dataclass(frozen=True)
class Expected:
    kind: str             # reference, mistake, stub, syntax or crash
    score: float          # what the grader should give, from 0 to 1
    mistake: str = None   # the known mistake's id, for kind "mistake"


def global_names(code):
    """Every global name a function's code (and the code nested in it) loads."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= global_names(const)
    return names


def function_source(fn):
    """The source of a function without its decorators."""
    lines = inspect.getsource(fn).splitlines()
    node = ast.parse("\n".join(lines)).body[0]
    return "\n".join(lines[node.lineno - 1:])


def imports_of(module):
    """{name: import statement} for every top-level import of a module's file (not the authoring
    API), so a standalone mistake imports what it uses as the mistakes file does."""
    tree = ast.parse(Path(module.__file__).read_text())
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not (
                isinstance(node, ast.ImportFrom) and (node.module or "").startswith("grader")):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                found[name] = ast.unparse(ast.fix_missing_locations(
                    type(node)(names=[alias], **({"module": node.module, "level": node.level}
                                                 if isinstance(node, ast.ImportFrom) else {}))))
    return found


def mistake_source(lesson, mistake):
    """The mistake as a learner's standalone file, or None when it needs more than the reference,
    the mistakes file's imports and its plain helper functions."""
    fns = list(mistake.functions.values())
    module = inspect.getmodule(fns[0])
    reference = lesson.namespace()
    known = set(reference) | set(vars(builtins)) | set(mistake.functions)
    imports, helpers, parts = imports_of(module), [], []
    todo, seen = [fn.__code__ for fn in fns], set()
    while todo:
        for name in global_names(todo.pop()) - known - seen:
            seen.add(name)
            value = getattr(module, name, None)
            if name in imports:
                parts.append(imports[name])
            elif inspect.isfunction(value) and value.__module__ == module.__name__:
                helpers.append(function_source(value))
                todo.append(value.__code__)
            else:
                return None
    body = "\n".join(sorted(set(parts)))
    chunks = [lesson.reference_source.rstrip("\n"), *([body] if body else []), *helpers,
              *(function_source(fn) for fn in fns)]
    return "\n\n\n".join(chunks) + "\n"


def mistake_files(lesson):
    """[(mistake id, source, score)] for every known mistake that can stand alone: its score is
    the share of cases the grader's own run of the mistake passes (0 if it breaks a rule)."""
    n = len(lesson.cases)
    found = []
    for (m, _), (_, _, fails) in zip(lesson.mistakes, lesson.mistake_table):
        source = mistake_source(lesson, m)
        if source is None:
            continue
        broken = constraints.check(ast.parse(source), lesson.spec,
                                   any(c.float_errors for c in lesson.cases), lesson.entry.framework)
        found.append((m.id, source, 0.0 if broken else (n - len(fails)) / n))
    return found


def crash_source(lesson):
    return lesson.reference_source.rstrip("\n") + "".join(
        CRASH.format(name=fn) for fn in lesson.spec.functions)


def learner_id(i):
    return f"learner{i:04d}"


class ClassMaker:
    """Draws and writes a class: `write(folder, learners)` lays out learner0000/NN-slug/solution.py
    files and returns {(learner, lesson id): Expected}."""

    def __init__(self, lessons, seed=0):
        self.lessons = list(lessons)
        self.seed = seed
        self.mistakes = {l.id: mistake_files(l) for l in self.lessons}
        self.stubs = {l.id: regions.stub(l.reference_source) for l in self.lessons}

    def draw(self, learner, lesson):
        """(kind, source, Expected) for one learner x lesson."""
        rng = random.Random(f"{self.seed}:{learner}:{lesson.id}")
        kinds = [k for k, _ in WEIGHTS if k != "mistake" or self.mistakes[lesson.id]]
        kind = rng.choices(kinds, [w for k, w in WEIGHTS if k in kinds])[0]
        if kind == "reference":
            return lesson.reference_source, Expected(kind, 1.0)
        if kind == "mistake":
            mistake, source, score = rng.choice(self.mistakes[lesson.id])
            return source, Expected(kind, score, mistake)
        if kind == "stub":
            return self.stubs[lesson.id], Expected(kind, 0.0)
        if kind == "syntax":
            return lesson.reference_source + SYNTAX, Expected(kind, 0.0)
        return crash_source(lesson), Expected(kind, 0.0)

    def write(self, folder, learners):
        folder = Path(folder)
        expected = {}
        for i in range(learners):
            learner = learner_id(i)
            for lesson in self.lessons:
                source, expect = self.draw(learner, lesson)
                path = folder / learner / lesson.id / "solution.py"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(source)
                expected[learner, lesson.id] = expect
        return expected
