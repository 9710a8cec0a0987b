"""Symptoms read from exceptions: the wrong kind raised where one must be, a check of the learner's
own that refuses valid input, and the errors numpy and torch raise (broadcasts, matmuls, reshapes).

What an exception says, and what its class is called, are the learner's choice, and on a hidden case
may spell out its inputs: a symptom quotes a message or a class name only from a public case (cut
short), a class name from a hidden one only when it is one of Python's own, and otherwise only the
numbers and shapes a reader parsed, preferring a public case's.
"""
from grader.judge.shown import builtin_exception
from grader.runner.outcome import grader_kind
from . import failures, traits as tr
from .evidence import symptom

MAX_QUOTE = 200


def class_name(results):
    """The name of the exception class the cases raised (all the same), as a symptom may say it."""
    name = results[0].outcome.error["type"]
    if builtin_exception(name) or any(r.case.public for r in results):
        return name[:MAX_QUOTE]
    return "an exception of a class of its own"


# ---- recognisable exceptions ----

def extreme(case):
    """A case about numerical stability: floating-point checks on, or huge or infinite inputs."""
    return case.float_errors or bool({"large", "-inf"} & set(tr.value_traits(case)))


def error_symptoms(lesson, results, passing):
    """Recognisable exceptions: one symptom per kind, for the failing cases that raised it."""
    errors = [r for r in results if r.outcome.status == "error"]
    found = []
    expected_raise = {c.raises for c in lesson.cases if c.raises}
    wrong_type = [r for r in errors if lesson.cases[r.index].raises and not grader_kind(r.outcome.error)
                  and r.outcome.error["type"] != "NotImplementedError"]
    if wrong_type and len({r.outcome.error["type"] for r in wrong_type}) == 1:
        want, got = lesson.cases[wrong_type[0].index].raises, class_name(wrong_type)
        advice = (" An `assert` raises AssertionError (and is skipped when Python runs with -O): "
                  f"write `if ...: raise {want}(\"...\")` instead." if got == "AssertionError" else
                  f" Raise `{want}` yourself, with a message, where the check fails.")
        found.append(symptom("wrong-exception", (
            f"On {'every' if len(wrong_type) > 1 else 'the'} case that must raise {want} your code "
            f"raises {got}: the check is there, with the wrong kind of exception.{advice}"),
            [r.index for r in wrong_type]))
    own = [r for r in errors if not lesson.cases[r.index].raises
           and r.outcome.error["type"] in expected_raise]
    if own and all(r.outcome.error.get("message") == own[0].outcome.error.get("message") for r in own):
        kind_ = own[0].outcome.error["type"]      # one the lesson itself raises
        shown = [r for r in own if r.case.public]
        message = shown[0].outcome.error.get("message")[:MAX_QUOTE] if shown else ""
        said = f" ({message!r})" if message else ""
        probes = "; ".join(dict.fromkeys(lesson.cases[r.index].name for r in own[:4]))
        found.append(symptom("check-too-strict", (
            f"Your own check raises {kind_}{said} on {len(own)} case"
            f"{'s' if len(own) > 1 else ''} whose inputs are valid and must give an answer ({probes}): "
            "the condition of the check is too strict. Compare against the exact limit (`>` "
            "against `>=`, the last allowed index against the size) and make sure it compares "
            "the right sizes."), [r.index for r in own]))
    taken = {i for d in found for i in d.cases}
    groups = {}
    for r in errors:
        if r.index in taken:
            continue
        read = failures.read(r.outcome.error, lesson.cases[r.index].float_errors)
        if read:
            groups.setdefault(read[0], []).append((r, read[1]))
    ordinary = [r for r in results if not extreme(lesson.cases[r.index])]
    for name, members in groups.items():
        r0, words = min(members, key=lambda m: not m[0].case.public)
        if name == "float-error" and ordinary:     # advice on stability only where values are extreme
            words = words.replace(failures.STABILITY, (
                f" Your code is also wrong on {len(ordinary)} case{'s' if len(ordinary) > 1 else ''} "
                "with ordinary inputs, so the formula itself comes before its numerical stability."))
        line = r0.outcome.error.get("line")
        at = f" (line {line})" if line else ""
        lead = (f"All {len(members)} failing cases that raised an error raised this kind{at}"
                if len(members) > 1 else f"The failing case raised this kind of error{at}")
        found.append(symptom(name, f"{lead}: {words}",
                             [r.index for r, _ in members]))
    return found
