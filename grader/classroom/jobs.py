"""One class job (a learner x a lesson): grade it whatever happens, and turn its Result into the row
the gradebook stores, with every learner-facing word decided here.

Hidden cases' inputs reach the learner's code, so whatever that code returned, printed or raised
during a hidden case may hold them. A hidden case is therefore described only in the grader's own
words: its name, what it probes (the author's text) and a verdict chosen from fixed phrases. Public
cases may show their input, expected answer, the learner's answer and what it printed.
"""
import builtins
import hashlib
import re
import time
from dataclasses import dataclass

from grader.display import show, shape_of
from grader.judge.grade import Result, grade_file
from grader.learner.report import call_text
from .learnerfiles import Refused

MAX_SHOWN = 4000
GRADER_FAULT = "the grader could not grade this file"
JOB_FOLDER = re.compile(r"[^\s'\"]*/job-\d+-[0-9a-f]{8}/")


@dataclass(frozen=True)
class Graded:
    learner: str
    lesson: str
    path: str
    row: dict          # what Gradebook.record stores
    sha256: str = None  # of the bytes graded (None: nothing was read)


def hidden_verdict(r):
    """A failing hidden case's verdict, from fixed phrases only (no learner-controlled text)."""
    o = r.outcome
    if r.verdict.passed:
        return "passed"
    if o.status == "error":
        kind = o.error["type"]
        if kind == "NotImplementedError":
            return "not implemented yet"
        if kind == "MissingFunction":
            return r.verdict.message        # names a lesson function: the grader's own words
        if kind == "UnsupportedReturn":
            return "your function returned a value of a type the grader does not accept"
        named = f" ({kind})" if isinstance(getattr(builtins, kind, None), type) else ""
        return f"your function raised an exception{named}"
    if o.status in ("timeout", "crash", "not-run"):
        return r.verdict.message            # time limits and how a process ended: grader's words
    if o.mutated:
        return "your function changed its input in place; compute into a new array instead"
    if r.case.check:
        return "your answer does not have the property this case checks"
    message = r.verdict.message
    if "shape" in message:
        return "your answer has the wrong shape"
    if "NaN" in message:
        return "your answer has NaN where it should not (or lacks it where it should)"
    if message.startswith("expected ") and " got " in message and "values" not in message:
        return "your answer is not of the expected kind (type, dtype or length)"
    return "your answer's values differ from the expected ones"


def clip(text):
    """`text` without the job's temporary folder (so a regrade writes the same feedback), capped."""
    text = JOB_FOLDER.sub("", text)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + f"\n... ({len(text) - MAX_SHOWN:,} more characters)"


def public_shown(r):
    """What a public case may show: input, expected, got, what the code printed, where it raised."""
    shown = {"input": r.case.probe or call_text(r.case.calls[0])}
    if not r.verdict.passed:
        if r.expected.status == "ok" and len(r.expected.outputs) == 1:
            shown["expected"] = show(r.expected.outputs[0], summarize=True)
            if r.outcome.status == "ok" and r.outcome.outputs:
                got = r.outcome.outputs[0]
                shape = shape_of(got)
                shown["got"] = clip(show(got, summarize=True)
                                    + (f"  (shape {tuple(shape)})" if shape else ""))
        error = r.outcome.error
        if error and error.get("trace") and error["type"] not in ("NotImplementedError",
                                                                  "MissingFunction"):
            shown["where"] = clip(error["trace"][-1])
    if r.outcome.stdout.strip():
        shown["printed"] = clip(r.outcome.stdout.rstrip())
    return shown


def case_row(r):
    public = bool(r.case.public)
    return {"name": r.case.name, "public": public, "status": r.outcome.status,
            "passed": bool(r.verdict.passed), "message": r.verdict.message or "",
            "verdict": ("passed" if r.verdict.passed else clip(r.verdict.message)) if public
            else hidden_verdict(r),
            "probe": r.case.probe or "", "shown": public_shown(r) if public else None}


def result_row(result, fault=None):
    """The gradebook row of a Result; `fault` is the grader's own exception, if it failed."""
    feedback_error = result.error and clip(result.error)
    if fault is not None:
        feedback_error = (f"{GRADER_FAULT} (an error inside the grader, {type(fault).__name__}); "
                          "your instructor has the details")
    return {
        "score": result.score, "passed": bool(result.passed), "cases_passed": result.passed_count,
        "error": result.error, "error_line": result.error_line, "feedback_error": feedback_error,
        "fault": fault is not None, "hint": result.hint,
        "violations": [{"rule": v.rule, "line": v.line, "message": v.message}
                       for v in result.violations],
        "diagnosis": [{"mistake": d.mistake, "message": d.message} for d in result.diagnosis],
        "cases": [case_row(r) for r in result.cases],
    }


def grade_job(submission, pool, limits, name=None, data=None):
    """(Graded, seconds) for one submission; nothing that goes wrong here stops the class. `name`:
    how tracebacks name the file (default: its path); `data`: its bytes, when already read."""
    start = time.monotonic()
    lesson, fault, sha = submission.lesson, None, None
    try:
        if submission.problem:
            result = Result(lesson, submission.path, error=submission.problem)
        else:
            try:
                data = submission.read() if data is None else data
            except Refused as exc:
                result = Result(lesson, submission.path, error=str(exc))
            else:
                sha = hashlib.sha256(data).hexdigest()
                result = grade_file(lesson, submission.path, pool, limits, name=name, data=data)
        row = result_row(result)
    except Exception as exc:    # the grader's own failure on this job: record it, go on
        fault = exc
        result = Result(lesson, submission.path,
                        error=f"{GRADER_FAULT}: {type(exc).__name__}: {exc}")
        row = result_row(result, fault)
    return (Graded(submission.learner, lesson.id, str(submission.path), row, sha),
            time.monotonic() - start)
