"""What a learner may read of one case's verdict, in every place a verdict is shown.

A public case shows its verdict in full. A hidden case's inputs reach the learner's code, so whatever
that code returned, printed or raised during it (a message, an exception's type name, what the
process printed before it died, where it says it was) may hold them: a hidden case is told only in
the grader's own fixed phrases, chosen by what happened, never copied from it.
"""
import builtins

from grader.runner.outcome import grader_kind


def builtin_exception(name):
    """Whether `name` is one of Python's own exception classes (so naming it quotes nothing the
    learner chose)."""
    kind = vars(builtins).get(name)
    return isinstance(kind, type) and issubclass(kind, BaseException)


def raised_words(case, error):
    """A hidden case's exception in fixed words."""
    if grader_kind(error) == "MissingFunction":
        return None                      # the parent's own words, naming a lesson function
    if grader_kind(error) == "UnsupportedReturn":
        return "your function returned a value of a type the grader does not accept"
    if error["type"] == "NotImplementedError":
        return "not implemented yet"
    named = f" ({error['type']})" if builtin_exception(error["type"]) else ""
    did = f"your function raised an exception{named}"
    return f"expected a {case.raises}; {did}" if case.raises else did


def hidden_verdict(r):
    """A failing hidden case's verdict, from fixed phrases only (no learner-controlled text)."""
    o = r.outcome
    if o.status == "error":
        return raised_words(r.case, o.error) or r.verdict.message
    if o.status in ("timeout", "crash", "not-run"):
        return {"timeout": "timed out: ", "crash": "crashed: ",
                "not-run": "not run: "}[o.status] + o.detail    # the grader's words alone
    if r.case.raises:
        return f"expected a {r.case.raises}; your function returned a value"
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


def verdict_text(r):
    """The verdict of case result `r` as the learner reads it ("" when it passed)."""
    if r.verdict.passed:
        return ""
    return r.verdict.message if r.case.public else hidden_verdict(r)
