"""How a symptom is stated: a Diagnosis named `symptom:...`, the phrase for how many cases it
speaks for, and the hint tier it points at."""
from dataclasses import replace

from grader.judge.diagnose import Diagnosis


def symptom(name, message, cases):
    return Diagnosis(f"symptom:{name}", message, None, frozenset(cases))


def every(results):
    n = len(results)
    return "On every failing case" if n > 1 else "On the failing case"


def code_spans(text):
    """The text between pairs of backticks, by a plain scan (messages quote learner text)."""
    spans, i = [], text.find("`")
    while i >= 0:
        j = text.find("`", i + 1)
        if j < 0:
            break
        if j > i + 1:
            spans.append(text[i + 1:j])
            j = text.find("`", j + 1)
        i = j
    return spans


def hinted(found, hint_topics):
    """The symptoms, each pointing at the hint tier whose topics its code (the text in backticks:
    `keepdims=True`, `np.max`) names, when exactly one tier's do; prose words are too common to
    point anywhere."""
    out = []
    for d in found:
        code = " ".join(code_spans(d.message))
        tiers = {i for i, topics in enumerate(hint_topics, 1) if any(t in code for t in topics)}
        out.append(replace(d, hint=tiers.pop()) if len(tiers) == 1 and d.hint is None else d)
    return out
