"""Load a lesson's source folder: prose, reference, rules, cases and known mistakes."""
import ast
import gc
import importlib.util
import math
import sys
import types
import zlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from . import authoring, prose

from grader.judge import diagnose, trusted
from .authoring import Call, Case


class LessonError(ValueError):
    """A lesson source that is broken (an author's error, reported by `grader verify`)."""


def import_file(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def example_scope(example, base=None):
    """The names an example runs with (np, math, torch if it mentions it, on top of `base`),
    after its setup statements have run."""
    ns = dict(base or {})
    ns.update(np=np, math=math, inf=math.inf, nan=math.nan)
    if "torch" in " ".join(example.setup) + example.source:
        import torch
        ns["torch"] = torch
    for statement in example.setup:
        exec(statement, ns)
    return ns


def evaluate_call(source, namespace):
    """Split an example's expression `fn(args...)` into the function name and evaluated arguments."""
    tree = ast.parse(source, mode="eval").body
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)):
        raise LessonError(f"example `{source}` is not a call of a lesson function")

    def value(node):
        return eval(compile(ast.Expression(node), "<example>", "eval"), namespace)

    return tree.func.id, tuple(value(a) for a in tree.args), {k.arg: value(k.value) for k in tree.keywords}


@dataclass
class Lesson:
    entry: object
    folder: Path
    seed: int = None    # the cases' seed; None: the lesson's own, fixed by its id

    def reseeded(self, seed):
        """The same lesson with its cases drawn from another seed (its sources loaded once)."""
        other = Lesson(self.entry, self.folder, seed)
        for name in ("prose", "reference_source", "hidden", "mistakes"):
            other.__dict__[name] = getattr(self, name)
        return other

    @property
    def id(self):
        return self.entry.id

    @cached_property
    def prose(self):
        return prose.parse((self.folder / "lesson.md").read_text())

    @cached_property
    def reference_source(self):
        return (self.folder / "solution.py").read_text()

    def prepare(self):
        """Compute the trusted outcomes once, before several threads grade against this lesson;
        the cyclic collector waits meanwhile (what the libraries' imports and the answers make
        lives on: collecting it was about a sixth of the work)."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            self.expected, self.mistake_table
        finally:
            if collecting:
                gc.enable()

    @cached_property
    def libraries(self):
        """The top-level modules the reference imports (a worker preloads them)."""
        tree = ast.parse(self.reference_source)
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        return {name.split(".")[0] for name in names}

    @cached_property
    def given_functions(self):
        """The names of the functions the lesson gives complete (no solution region inside)."""
        source = self.reference_source
        return frozenset(n.name for n in ast.parse(source).body
                         if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and "### BEGIN SOLUTION" not in (ast.get_source_segment(source, n) or ""))

    @cached_property
    def hidden(self):
        return import_file(self.folder / "hidden_cases.py", self.module_name("hidden_cases"))

    @property
    def spec(self):
        return self.hidden.SPEC

    def module_name(self, part):
        return f"lesson_{self.id.replace('-', '_')}_{part}"

    def namespace(self, base=None, source=None):
        """A fresh module namespace holding the reference solution (on top of `base`), or the
        variant of it in `source`."""
        ns = dict(base or {})
        ns["__name__"] = self.module_name("reference")
        exec(compile(source or self.reference_source, str(self.folder / "solution.py"), "exec"), ns)
        return ns

    @cached_property
    def mistakes(self):
        """Known mistakes, each with a namespace where its functions replace the reference's."""
        module = import_file(self.folder / "mistakes.py", self.module_name("mistakes"))
        found = []
        for m in authoring.MISTAKES.get(module.__name__, {}).values():
            ns = self.namespace(vars(module))
            for name, fn in m.functions.items():
                ns[name] = types.FunctionType(fn.__code__, ns, name, fn.__defaults__, fn.__closure__)
            found.append((m, ns))
        return found

    def example_case(self, number, example):
        fn, args, kwargs = evaluate_call(example.source, example_scope(example))
        if fn not in self.spec.functions:
            raise LessonError(f"example `{example.source}` calls {fn}, not one of the lesson's functions")
        return Case(f"example {number}", (Call(fn, args, kwargs),), probe=example.source, public=True)

    @cached_property
    def expected(self):
        """The reference's outcome on every case."""
        return trusted.run(self.namespace(), self.cases)

    @cached_property
    def mistake_table(self):
        return diagnose.mistake_failures(self)

    @cached_property
    def variant_outcomes(self):
        """(input slip, case index) -> the reference's outcome with that slip, filled as symptoms
        ask: every learner of a class who fails a case asks the same."""
        return {}

    @cached_property
    def cases(self):
        """The public examples, then the hidden cases, built from a seed fixed per lesson."""
        public = [self.example_case(i, e) for i, e in enumerate(self.prose.public_examples(), 1)]
        rng = np.random.default_rng(zlib.crc32(self.id.encode()) if self.seed is None else self.seed)
        hidden = list(self.hidden.cases(rng))
        names = [c.name for c in public + hidden]
        if len(set(names)) != len(names):
            raise LessonError(f"{self.id}: two cases share a name")
        return public + hidden


def load(roadmap, name):
    """The lesson named by number or slug; raises UnknownLesson, or LessonError if not written yet."""
    entry = roadmap.find(name)
    if not roadmap.available(entry):
        raise LessonError(f"Lesson {entry.id} ({entry.title}) is coming soon: it is not written yet.")
    return Lesson(entry, roadmap.root / "solutions" / entry.id)
