"""Judge one case: the outcome of the code under test against the reference's outcome."""
from dataclasses import dataclass

from grader.display import ordinal
from grader.runner.outcome import grader_kind, last_words
from .compare import agrees, compare, kind_problem
from .scan import wording


@dataclass(frozen=True)
class Verdict:
    passed: bool
    message: str = ""


def error_text(error):
    if error["type"] == "NotImplementedError":
        return "not implemented yet"
    if grader_kind(error) == "MissingFunction":
        return f"your file has {error['message']}"
    if grader_kind(error) == "UnsupportedReturn":
        return f"unsupported return type: {error['message']}"
    line = f" (line {error['line']})" if error.get("line") else ""
    if error.get("given"):
        line = f" (inside the given `{error['given']}`, called from your line {error['line']})"
    message = f": {error['message']}" if error["message"] else ""
    return f"raised {error['type']}{message}{line}"


def judge(case, got, expected, spec):
    """A Verdict for `got` (an Outcome) on `case`, given the reference's Outcome `expected`."""
    if case.raises and got.status in ("ok", "error"):
        if got.status == "error" and got.error["type"] == case.raises:
            return Verdict(True)
        if got.status == "error" and got.error["type"] == "NotImplementedError":
            return Verdict(False, error_text(got.error))
        did = "returned a value" if got.status == "ok" else error_text(got.error)
        return Verdict(False, f"expected a {case.raises}; your function {did}")
    if got.status == "error":
        return Verdict(False, error_text(got.error))
    if got.status != "ok":
        return Verdict(False, {"timeout": "timed out: ", "crash": "crashed: ",
                               "not-run": "not run: "}[got.status] + got.detail
                       + last_words(got.said))
    if got.mutated:
        return Verdict(False, f"your function changed its input ({', '.join(got.mutated)}) in "
                              "place; compute into a new array instead")
    if expected.status != "ok":
        raise RuntimeError(f"the reference fails case '{case.name}': {expected.error}")
    if case.check:
        problem = next(filter(None, (kind_problem(e, g) for e, g
                                     in zip(expected.outputs, got.outputs))), None)
        if problem:
            return Verdict(False, problem)
        try:
            message = case.check(got.outputs, expected.outputs, case.calls)
        except Exception:  # the learner's answer is not even of the right kind to check
            message = next(filter(None, (compare(e, g, spec.rtol, spec.atol) for e, g
                                         in zip(expected.outputs, got.outputs))),
                           "your answer could not be checked")
        return Verdict(message is None, message or "")
    for i, (e, g) in enumerate(zip(expected.outputs, got.outputs)):
        message = compare(e, g, spec.rtol, spec.atol)
        if message:
            prefix = f"in the {ordinal(i)} call: " if len(case.calls) > 1 else ""
            return Verdict(False, prefix + message)
    return Verdict(True)


def raised_by_own_statement(error):
    """Whether the code's own `raise` or `assert` raised the error (its last traced line), so that
    its wording is the writer's choice, not the library's."""
    trace = error.get("trace") or []
    return bool(trace) and trace[-1].partition(": ")[2].lstrip().startswith(("raise", "assert"))


def error_signature(error):
    """What makes two errors the same error: the type and what it says, numbers aside (sizes and
    indices differ with the inputs; the operation that failed does not). An error the code raised
    itself is known by its type alone: two people word the same refusal differently."""
    if raised_by_own_statement(error):
        return error["type"], grader_kind(error), "raised by the code itself"
    return error["type"], grader_kind(error), wording(error.get("message") or "")


def same_behaviour(a, b, spec):
    """Whether two outcomes agree: the same error, or outputs equal within tolerance."""
    if a.status != b.status:
        return False
    if a.status == "error":
        return error_signature(a.error) == error_signature(b.error)
    if a.status != "ok":
        return True
    if bool(a.mutated) != bool(b.mutated) or len(a.outputs) != len(b.outputs):
        return False
    return all(agrees(x, y, spec.rtol, spec.atol) for x, y in zip(a.outputs, b.outputs))
