"""How a symptom is stated: a Diagnosis named `symptom:...`, and the phrase for how many cases it
speaks for."""
from grader.judge.diagnose import Diagnosis


def symptom(name, message, cases):
    return Diagnosis(f"symptom:{name}", message, None, frozenset(cases))


def every(results):
    n = len(results)
    return "On every failing case" if n > 1 else "On the failing case"
