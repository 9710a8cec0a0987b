"""Grade one learner file on one lesson: load -> build cases -> run child -> compare -> diagnose."""
import ast
import hashlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import budget, constraints, points, symptoms

from grader.answers import MAX_NOTEBOOK, MAX_SOURCE, file_bytes, read_answer
from grader.runner import run
from .diagnose import diagnose, distinct
from grader.runner.outcome import Job, Outcome, grader_kind
from .verdict import Verdict, error_text, judge
from grader.runner.workers import JobNotClean, WorkerDied

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
    notes: list = field(default_factory=list)   # for the learner; they never change the score
    digest: str = None        # the SHA-256 of the bytes graded (None when none could be read)

    @property
    def passed_count(self):
        return sum(r.verdict.passed for r in self.cases)

    @property
    def counted(self):
        """{case name: whether it counts as passed}: nothing counts in a file that could not be
        graded or that breaks the lesson's rules."""
        if self.error or self.violations:
            return {}
        return {r.case.name: r.verdict.passed for r in self.cases}

    @property
    def score(self):
        """The lesson's points (grader.judge.points)."""
        counted = self.counted
        return points.earned(self.lesson, counted) if counted else 0.0

    @property
    def passed(self):
        return self.error is None and not self.violations and self.passed_count == len(self.cases)

    @property
    def stdout(self):
        return (self.printed or {}).get("stdout", "")

    @property
    def hint(self):
        return self.pointer[0] if self.pointer else None

    @property
    def pointer(self):
        """(the hint tier that best addresses the first thing wrong, the failing cases it is about
        or None when it is about a diagnosis shown), if the lesson names one: only for a wrong
        answer or an error of the lesson's own (never for a file that cannot be graded, a
        time-out, a crash, a missing function or an untouched stub). A case's tier counts only
        when every failing case names that same tier: failing everywhere says nothing about what
        one case probes."""
        if self.error:
            return None
        for d in self.diagnosis:
            if d.hint:
                return d.hint, None
        failing = [r for r in self.cases if not r.verdict.passed]
        tiers = {r.case.hint for r in failing}
        if len(tiers) == 1 and None not in tiers and all(about_the_lesson(r.outcome) for r in failing):
            return tiers.pop(), failing
        return None


NOT_ABOUT_THE_LESSON = {"NotImplementedError", "ModuleNotFoundError", "ImportError", "SyntaxError",
                        "KeyboardInterrupt", "SystemExit", "MemoryError", "RecursionError"}


def about_the_lesson(outcome):
    """Whether a failing outcome says something about the lesson's subject (a wrong answer, or an
    exception such as a shape error), rather than about the file or the run (a missing function,
    a value the grader does not accept)."""
    if outcome.status == "ok":
        return True
    return (outcome.status == "error" and not grader_kind(outcome.error)
            and outcome.error["type"] not in NOT_ABOUT_THE_LESSON)


def shown_name(path):
    """How tracebacks and warnings name the file: relative to the current folder when below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def read_bytes(path):
    """The learner's file, read once (what is graded, and fingerprinted, is these bytes); raises
    ValueError with a learner-facing reason."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"there is no file at {shown_name(path)}")
    return file_bytes(path, None, MAX_NOTEBOOK if path.suffix.lower() == ".ipynb" else MAX_SOURCE)


def read_source(path, data=None):
    """The learner's file (or a notebook's answer cells) as (text, syntax tree); raises ValueError
    (or SyntaxError) with a learner-facing reason. `data`: the file's bytes, already read (`path`
    then only names it)."""
    path = Path(path)
    if data is None and not path.is_file():
        raise ValueError(f"there is no file at {shown_name(path)}")
    source = read_answer(path, data)
    try:
        return source, ast.parse(source, filename=str(path))
    except SyntaxError as e:
        raise SyntaxError(f"SyntaxError: {e.msg}", (str(path), e.lineno, e.offset, e.text)) from None
    except (RecursionError, MemoryError, ValueError):
        raise ValueError(f"{path.name} could not be parsed (too deeply nested, or a null byte)") from None


def run_cases(pool, source, cases, limits, name=None, progress=None, public=None,
              rules=None):
    """The learner's outcomes. A worker that died twice under this file is, in the sandbox (where
    learner code cannot reach its worker), the grader's failure; without it, the file's crash.
    `rules`: what the child's guard refuses as the code runs."""
    try:
        return pool.run(lambda worker: run.run_job(worker, source, cases, limits, name, progress,
                                                   public, rules))
    except WorkerDied as exc:
        if pool.bwrap:
            raise JobNotClean(f"the grading worker died twice while running this file ({exc})") \
                from None
        return Job([Outcome("crash", detail="the grading worker died twice while running this file")
                    for _ in cases])


def run_learner(pool, source, cases, limits, name=None, progress=None, rules=None):
    """Run the public cases, then the hidden ones, in one child: it is sent the hidden inputs only
    once it has answered every public case (whose printed output is shown), so no hidden input is
    in the learner's process while it produces what the learner sees. `rules`: what the
    child's guard refuses as the code runs."""
    public = [i for i, c in enumerate(cases) if c.public]
    order = public + [i for i, c in enumerate(cases) if not c.public]
    told = progress and (lambda k, outcome: progress(order[k], outcome))   # the lesson's numbers
    job = run_cases(pool, source, [cases[i] for i in order], limits, name, told, len(public),
                    rules)
    outcomes = [None] * len(cases)
    for k, i in enumerate(order):
        outcomes[i] = job.outcomes[k]
    job.outcomes = outcomes
    return job


def over_budget(result, over):
    """A job whose judging ran past its budget: a verdict of its own, with nothing judged."""
    result.cases, result.diagnosis, result.error_line = [], [], None
    result.error = (f"the grader stopped judging this file: {over} (answers of the size the "
                    "lesson asks for take milliseconds); return what the lesson describes")
    return result


def pin_to_learner(outcomes, given):
    """An error raised inside a function the lesson gives is the caller's: its line becomes the
    learner's line that called the given function (the given one is named beside it)."""
    for o in outcomes:
        trace = (o.error or {}).get("trace") or []
        if not trace or function_of(trace[-1]) not in given:
            continue
        callers = [t for t in trace if function_of(t) not in given]
        if callers:
            o.error = {**o.error, "given": function_of(trace[-1]), "called_from": callers[-1],
                       "line": line_of(callers[-1]) or o.error.get("line")}


def function_of(trace_line):
    """The function of a trace line "line 12, in softmax: ..."."""
    head = trace_line.partition(": ")[0]
    return head.partition(", in ")[2]


def line_of(trace_line):
    number = trace_line.partition(",")[0].removeprefix("line ")
    return int(number) if number.isdigit() else None


def grade_file(lesson, path, pool, limits=None, progress=None, name=None, data=None):
    """Grade the file at `path` on `lesson` using `pool`'s warm workers; every failure of the file
    is inside the Result. `progress(index, outcome)` is told as each case ends; `name` is how
    tracebacks name the file (default: its path, as shown_name gives it); `data`: the file's bytes,
    already read (the path then only names it)."""
    result = Result(lesson, Path(path))
    try:
        data = read_bytes(path) if data is None else data
        result.digest = hashlib.sha256(data).hexdigest()
        source, tree = read_source(path, data)
    except SyntaxError as e:
        result.error, result.error_line = e.msg, e.lineno
        return result
    except ValueError as e:
        result.error = str(e)
        return result
    spec = lesson.spec
    rule_args = (spec, any(c.float_errors for c in lesson.cases), lesson.entry.framework)
    result.violations = constraints.check(tree, *rule_args)
    limits = limits or run.Limits(case_seconds=spec.timeout)
    learner = lambda: run_learner(pool, source, lesson.cases, limits, name or shown_name(path),
                                  progress, constraints.runtime_rules(*rule_args))
    if "expected" in vars(lesson):      # computed once already (a class prepares its lessons)
        job = learner()
        expected = lesson.expected
    else:
        with ThreadPoolExecutor(1) as reference:
            expected = reference.submit(lambda: lesson.expected)   # while the child imports
            job = learner()
            expected = expected.result()
    result.violations = constraints.with_runtime(result.violations, job.broken, *rule_args)
    pin_to_learner(job.outcomes, lesson.given_functions)
    return judge_job(result, job, expected, source)


def judge_job(result, job, expected, source):
    """Fill `result` from the learner's `job` against the reference's `expected` outcomes: what
    stopped the file, each case's verdict, then the known mistakes and symptoms that explain the
    failures; all within the judging budget."""
    lesson = result.lesson
    result.printed = job.import_printed
    if job.import_error:
        error = {**job.import_error, "line": None}     # the line is told apart, once
        result.error = "your file could not be imported: " + error_text(error)
        result.error_line = job.import_error.get("line")
        if grader_kind(job.import_error) == "ImportTimeout" and job.import_error["trace"]:
            result.error += f"; your code was at {job.import_error['trace'][-1]}"
    elif job.channel_error:
        result.error = job.channel_error
    try:
        with budget.judging():
            result.cases = [judged(c, o, e, lesson.spec, i) for i, (c, o, e)
                            in enumerate(zip(lesson.cases, job.outcomes, expected))]
            failing = {i for i, r in enumerate(result.cases) if not r.verdict.passed}
            if not result.error:
                known = distinct(diagnose(lesson, job.outcomes, failing))
                explained = set().union(*(d.cases for d in known))
                result.diagnosis = known + symptoms.hinted(
                    symptoms.explain(lesson, result.cases, failing, explained, source),
                    lesson.spec.hint_topics)
    except budget.OverBudget as over:
        return over_budget(result, over)
    return result


def judged(case, outcome, expected, spec, index):
    budget.check()
    return CaseResult(case, judge(case, outcome, expected, spec), outcome, expected, index)
