"""Grade one learner file on one lesson: load -> build cases -> run child -> compare -> diagnose."""
import ast
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import constraints

from grader.notebooks.read import answer_source
from grader.runner import run
from .diagnose import diagnose, distinct
from .outcome import Job, Outcome
from .verdict import Verdict, error_text, judge
from grader.runner.workers import WorkerDied

MAX_SOURCE = 1 << 20


@dataclass
class CaseResult:
    case: object
    verdict: Verdict
    outcome: object
    expected: object


@dataclass
class Result:
    lesson: object
    path: Path
    cases: list = field(default_factory=list)
    violations: list = field(default_factory=list)
    diagnosis: list = field(default_factory=list)
    error: str = None         # why the file could not be graded at all
    error_line: int = None
    stdout: str = ""          # what the file printed while it was imported

    @property
    def passed_count(self):
        return sum(r.verdict.passed for r in self.cases)

    @property
    def score(self):
        if self.error or self.violations or not self.cases:
            return 0.0
        return self.passed_count / len(self.cases)

    @property
    def passed(self):
        return self.error is None and not self.violations and self.passed_count == len(self.cases)

    @property
    def hint(self):
        """The hint tier that best addresses the first thing wrong, if the lesson names one."""
        for d in self.diagnosis:
            if d.hint:
                return d.hint
        return next((r.case.hint for r in self.cases if not r.verdict.passed and r.case.hint), None)


def read_source(path):
    """The learner's file (or a notebook's answer cells) as (text, syntax tree); raises ValueError
    (or SyntaxError) with a learner-facing reason."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"there is no file at {path}")
    if path.suffix == ".ipynb":
        source = answer_source(path)
    else:
        if path.stat().st_size > MAX_SOURCE:
            raise ValueError(f"{path.name} is larger than {MAX_SOURCE // 1024} KiB")
        try:
            source = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{path.name} is not UTF-8 text") from None
    try:
        return source, ast.parse(source, filename=str(path))
    except SyntaxError as e:
        raise SyntaxError(f"SyntaxError: {e.msg}", (str(path), e.lineno, e.offset, e.text)) from None
    except (RecursionError, MemoryError, ValueError):
        raise ValueError(f"{path.name} could not be parsed (too deeply nested, or a null byte)") from None


def run_learner(pool, source, cases, limits):
    """The learner's outcomes; a worker that died twice under this file counts as its crash."""
    try:
        return pool.run(lambda worker: run.run_job(worker, source, cases, limits))
    except WorkerDied:
        return Job([Outcome("crash", detail="the grading worker died twice while running this file")
                    for _ in cases])


def grade_file(lesson, path, pool, limits=None):
    """Grade the file at `path` on `lesson` using `pool`'s warm workers; every failure of the file
    is inside the Result."""
    result = Result(lesson, Path(path))
    try:
        source, tree = read_source(path)
    except SyntaxError as e:
        result.error, result.error_line = f"{e.msg} (line {e.lineno})", e.lineno
        return result
    except ValueError as e:
        result.error = str(e)
        return result
    spec = lesson.spec
    result.violations = constraints.check(tree, spec, any(c.float_errors for c in lesson.cases))
    limits = limits or run.Limits(case_seconds=spec.timeout)
    with ThreadPoolExecutor(1) as reference:
        expected = reference.submit(lambda: lesson.expected)   # while the child imports the file
        job = run_learner(pool, source, lesson.cases, limits)
        expected = expected.result()
    result.stdout = job.import_stdout
    if job.import_error:
        result.error = "your file could not be imported: " + error_text(job.import_error)
        result.error_line = job.import_error.get("line")
    elif job.channel_error:
        result.error = job.channel_error
    result.cases = [CaseResult(c, judge(c, o, e, spec), o, e)
                    for c, o, e in zip(lesson.cases, job.outcomes, expected)]
    failing = {i for i, r in enumerate(result.cases) if not r.verdict.passed}
    if not result.error:
        result.diagnosis = distinct(diagnose(lesson, job.outcomes, failing))
    return result
