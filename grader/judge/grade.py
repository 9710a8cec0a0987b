"""Grade one learner file on one lesson: load -> build cases -> run child -> compare -> diagnose."""
import ast
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import constraints, symptoms

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
    index: int = None         # the case's place in the lesson's cases


@dataclass
class Result:
    lesson: object
    path: Path
    cases: list = field(default_factory=list)
    violations: list = field(default_factory=list)
    diagnosis: list = field(default_factory=list)
    error: str = None         # why the file could not be graded at all
    error_line: int = None
    printed: dict = None      # what the file printed while it was imported (stdout, its counts)

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
    def stdout(self):
        return (self.printed or {}).get("stdout", "")

    @property
    def hint(self):
        """The hint tier that best addresses the first thing wrong, if the lesson names one: only
        for a wrong answer or an error of the lesson's own (never for a file that cannot be
        graded, a time-out, a crash, a missing function or an untouched stub)."""
        if self.error:
            return None
        for d in self.diagnosis:
            if d.hint:
                return d.hint
        return next((r.case.hint for r in self.cases
                     if not r.verdict.passed and r.case.hint and about_the_lesson(r.outcome)), None)


NOT_ABOUT_THE_LESSON = {"NotImplementedError", "MissingFunction", "ModuleNotFoundError",
                        "ImportError", "SyntaxError", "KeyboardInterrupt", "SystemExit",
                        "MemoryError", "RecursionError", "UnsupportedReturn"}


def about_the_lesson(outcome):
    """Whether a failing outcome says something about the lesson's subject (a wrong answer, or an
    exception such as a shape error), rather than about the file or the run."""
    if outcome.status == "ok":
        return True
    return outcome.status == "error" and outcome.error["type"] not in NOT_ABOUT_THE_LESSON


def shown_name(path):
    """How tracebacks and warnings name the file: relative to the current folder when below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def read_source(path, data=None):
    """The learner's file (or a notebook's answer cells) as (text, syntax tree); raises ValueError
    (or SyntaxError) with a learner-facing reason. `data`: the file's bytes, already read (`path`
    then only names it)."""
    path = Path(path)
    if data is None and not path.is_file():
        raise ValueError(f"there is no file at {shown_name(path)}")
    if path.suffix.lower() == ".ipynb":
        source = answer_source(path, data)
    else:
        if (path.stat().st_size if data is None else len(data)) > MAX_SOURCE:
            raise ValueError(f"{path.name} is larger than {MAX_SOURCE // 1024} KiB")
        try:
            source = (path.read_bytes() if data is None else data).decode("utf-8")
            source = source.replace("\r\n", "\n").replace("\r", "\n")    # as text files read
        except UnicodeDecodeError:
            raise ValueError(f"{path.name} is not UTF-8 text") from None
    try:
        return source, ast.parse(source, filename=str(path))
    except SyntaxError as e:
        raise SyntaxError(f"SyntaxError: {e.msg}", (str(path), e.lineno, e.offset, e.text)) from None
    except (RecursionError, MemoryError, ValueError):
        raise ValueError(f"{path.name} could not be parsed (too deeply nested, or a null byte)") from None


def run_cases(pool, source, cases, limits, name=None, progress=None):
    """The learner's outcomes; a worker that died twice under this file counts as its crash."""
    try:
        return pool.run(lambda worker: run.run_job(worker, source, cases, limits, name, progress))
    except WorkerDied:
        return Job([Outcome("crash", detail="the grading worker died twice while running this file")
                    for _ in cases])


def run_learner(pool, source, cases, limits, name=None, progress=None):
    """Run the public cases, then the hidden ones in a child of their own: while public cases run
    (their output is shown), no hidden input is in the learner's process to be read and shown."""
    public = [i for i, c in enumerate(cases) if c.public]
    hidden = [i for i, c in enumerate(cases) if not c.public]
    if not public or not hidden:
        return run_cases(pool, source, cases, limits, name, progress)

    def told(indices):      # progress in the lesson's own case numbers
        return progress and (lambda k, outcome: progress(indices[k], outcome))

    job = run_cases(pool, source, [cases[i] for i in public], limits, name, told(public))
    timeouts = sum(o.status == "timeout" for o in job.outcomes)
    if job.import_error or job.channel_error or timeouts >= limits.max_timeouts:
        why = run.not_run_reason(job, limits)
        rest = Job([Outcome("not-run", detail=why) for _ in hidden])
    else:
        rest = run_cases(pool, source, [cases[i] for i in hidden],
                         replace(limits, max_timeouts=limits.max_timeouts - timeouts), name,
                         told(hidden))
        if rest.import_error:      # it imported before: whatever it raised now is not shown
            rest = Job([Outcome("crash", detail="the file failed to import a second time")
                        for _ in hidden])
        job.channel_error = job.channel_error or rest.channel_error
    timeouts += sum(o.status == "timeout" for o in rest.outcomes)
    outcomes = [None] * len(cases)
    for i, o in zip(public + hidden, job.outcomes + rest.outcomes):
        outcomes[i] = o
    if timeouts >= limits.max_timeouts:    # the hidden half's own count is not the job's
        for o in rest.outcomes:
            if o.status == "not-run":
                o.detail = f"{limits.max_timeouts} earlier cases timed out"
    job.outcomes = outcomes
    return job


def grade_file(lesson, path, pool, limits=None, progress=None, name=None, data=None):
    """Grade the file at `path` on `lesson` using `pool`'s warm workers; every failure of the file
    is inside the Result. `progress(index, outcome)` is told as each case ends; `name` is how
    tracebacks name the file (default: its path, as shown_name gives it); `data`: the file's bytes,
    already read (the path then only names it)."""
    result = Result(lesson, Path(path))
    try:
        source, tree = read_source(path, data)
    except SyntaxError as e:
        result.error, result.error_line = e.msg, e.lineno
        return result
    except ValueError as e:
        result.error = str(e)
        return result
    spec = lesson.spec
    result.violations = constraints.check(tree, spec, any(c.float_errors for c in lesson.cases),
                                          lesson.entry.framework)
    limits = limits or run.Limits(case_seconds=spec.timeout)
    if "expected" in vars(lesson):      # computed once already (a class prepares its lessons)
        job = run_learner(pool, source, lesson.cases, limits, name or shown_name(path), progress)
        expected = lesson.expected
    else:
        with ThreadPoolExecutor(1) as reference:
            expected = reference.submit(lambda: lesson.expected)   # while the child imports
            job = run_learner(pool, source, lesson.cases, limits, name or shown_name(path), progress)
            expected = expected.result()
    result.printed = job.import_printed
    if job.import_error:
        error = {**job.import_error, "line": None}     # the line is told apart, once
        result.error = "your file could not be imported: " + error_text(error)
        result.error_line = job.import_error.get("line")
        if job.import_error["type"] == "ImportTimeout" and job.import_error["trace"]:
            result.error += f"; your code was at {job.import_error['trace'][-1]}"
    elif job.channel_error:
        result.error = job.channel_error
    result.cases = [CaseResult(c, judge(c, o, e, spec), o, e, i)
                    for i, (c, o, e) in enumerate(zip(lesson.cases, job.outcomes, expected))]
    failing = {i for i, r in enumerate(result.cases) if not r.verdict.passed}
    if not result.error:
        known = distinct(diagnose(lesson, job.outcomes, failing))
        explained = set().union(*(d.cases for d in known))
        result.diagnosis = known + symptoms.explain(lesson, result.cases, failing, explained,
                                                            source)
    return result
