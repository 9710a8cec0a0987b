"""One class job (a learner x a lesson): grade it whatever happens, and turn its Result into the row
the gradebook stores, with every learner-facing word decided here.

Hidden cases' inputs reach the learner's code, so whatever that code returned, printed or raised
during a hidden case may hold them. A hidden case is therefore described only in the grader's own
words: its name, what it probes (the author's text) and a verdict chosen from fixed phrases
(`grader.judge.shown`, as every other view of a verdict). Public cases may show their input,
expected answer, the learner's answer and what it printed.
"""
import hashlib
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from grader.answers import notebook_cells
from grader.display import show, shape_of
from grader.judge.grade import Result, grade_file
from grader.judge.shown import verdict_text
from grader.learner.report import call_text
from grader.runner import sandbox
from grader.runner.workers import GRADER_HOME
from .collusion.fingerprint import output_hash
from .learnerfiles import Refused

MAX_SHOWN = 4000
GRADER_FAULT = "the grader could not grade this file"


@dataclass(frozen=True)
class Graded:
    learner: str
    lesson: str
    path: str
    row: dict          # what Gradebook.record stores
    sha256: str = None  # of the bytes graded (None: nothing was read)


def job_folder_end(word, at):
    """Where "/job-<digits>-<8 hex digits>/" starting at `at` in `word` ends, or -1."""
    i = at + len("/job-")
    j = i
    while j < len(word) and word[j].isdigit() and word[j].isascii():
        j += 1
    hexes = word[j + 1:j + 9]
    if j == i or word[j:j + 1] != "-" or len(hexes) != 8 or word[j + 9:j + 10] != "/" or any(
            c not in "0123456789abcdef" for c in hexes):
        return -1
    return j + 10


def without_job_folders(text):
    """`text` with every path through a job's temporary folder cut up to and including that folder
    ("/tmp/x/job-3-0a1b2c3d/solution.py" reads "solution.py"), in one forward scan: a path is a run
    of characters other than blanks and quotes, cut after the last job folder it holds."""
    if "/job-" not in text:
        return text
    out, start, n = [], 0, len(text)
    while start < n:
        end = start
        while end < n and not (text[end].isspace() or text[end] in "'\""):
            end += 1
        word, cut, at = text[start:end], 0, text.find("/job-", start, end)
        while at >= 0:
            found = job_folder_end(word, at - start)
            if found > 0:
                cut = found
            at = text.find("/job-", at + 1, end)
        out.append(word[cut:])
        stop = end
        while stop < n and (text[stop].isspace() or text[stop] in "'\""):
            stop += 1
        out.append(text[end:stop])
        start = stop
    return "".join(out)


@cache
def host_folders():
    """(host folder, how it is shown) for the folders a learner's code can learn the names of (the
    sandbox's mount table names the Python installation's): longest first."""
    shown = {r: sandbox.venv_view(r) for r in sandbox.python_roots()}
    shown = {host: view for host, view in shown.items() if host != view}
    shown.setdefault(GRADER_HOME, "<workbook>")
    shown = {host: view for host, view in shown.items() if len(Path(host).parts) > 1}
    return sorted(shown.items(), key=lambda item: -len(item[0]))


def clip(text):
    """`text` without the job's temporary folder (so a regrade writes the same feedback) and
    without the instructor's folders, capped."""
    text = without_job_folders(text)
    for host, view in host_folders():
        text = text.replace(host, view)
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
        if error and error.get("trace") and error["type"] != "NotImplementedError":
            shown["where"] = clip(error["trace"][-1])
    if r.outcome.stdout.strip():
        shown["printed"] = clip(r.outcome.stdout.rstrip())
    return shown


def case_row(r):
    public = bool(r.case.public)
    return {"name": r.case.name, "public": public, "status": r.outcome.status,
            "passed": bool(r.verdict.passed), "message": r.verdict.message or "",
            "verdict": "passed" if r.verdict.passed else clip(verdict_text(r)),
            "probe": r.case.probe or "", "shown": public_shown(r) if public else None,
            "output": output_hash(r.outcome.outputs if r.outcome.status == "ok" else None)}


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
        "cases": [case_row(r) for r in result.cases], "notes": list(result.notes),
    }


def notebook_notes(lesson, path, data):
    """What to tell the learner about an exported nbgrader notebook's grader cells (none for a
    Python file, or a notebook that is not one)."""
    if path.suffix != ".ipynb":
        return []
    from grader.notebooks.nbgrader_export import altered    # nbformat: only for notebooks
    try:
        return altered(lesson, notebook_cells(path, data))
    except (OSError, ValueError):
        return []


def refusal_key(reason):
    """What stands for the bytes of a file that is not read (a link, too large, unreadable): the
    refusal itself, so the same refusal is not graded again on the next run and a new one is."""
    return "refused:" + hashlib.sha256(reason.encode("utf-8", "surrogateescape")).hexdigest()


def grade_job(submission, pool, limits, name=None, data=None):
    """(Graded, seconds) for one submission; nothing that goes wrong here stops the class. `name`:
    how tracebacks name the file (default: its path from the learner's folder on); `data`: its
    bytes, when already read."""
    start = time.monotonic()
    lesson, fault, sha = submission.lesson, None, None
    try:
        if submission.problem:
            result = Result(lesson, submission.path, error=submission.problem)
            sha = refusal_key(submission.problem)
        else:
            try:
                data = submission.read() if data is None else data
            except Refused as exc:
                result = Result(lesson, submission.path, error=str(exc))
                sha = refusal_key(str(exc))
            else:
                sha = hashlib.sha256(data).hexdigest()
                result = grade_file(lesson, submission.path, pool, limits,
                                    name=name or submission.shown, data=data)
                result.notes = notebook_notes(lesson, submission.path, data)
        row = result_row(result)
    except Exception as exc:    # the grader's own failure on this job: record it, go on
        fault = exc
        result = Result(lesson, submission.path,
                        error=f"{GRADER_FAULT}: {type(exc).__name__}: {exc}")
        row = result_row(result, fault)
    return (Graded(submission.learner, lesson.id, str(submission.path), row, sha),
            time.monotonic() - start)
