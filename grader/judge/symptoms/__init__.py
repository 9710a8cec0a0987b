"""Symptoms: general explanations of wrong answers that no known mistake describes.

After the known mistakes, the trusted parent looks at how the learner's answers relate to the
expected ones on the failing cases nothing else explains: float32-sized errors, a transposed or
squeezed layout, a constant factor or offset, a log or exp of the answer, failures confined to the
cases that share one trait of their inputs, recognisable exceptions, and (where the author marked
cases that run one part of the lesson alone) which part is wrong. A symptom speaks only when its
evidence holds on every failing case it covers; it never speaks for a passing submission.
"""
from grader.judge import budget
from . import relations as rel, traits as tr, variants
from .errors import error_symptoms
from .evidence import every, hinted, symptom
from .layout import mutation_symptom
from .values import eps_symptom, value_symptoms
from .where import confined_symptoms, function_symptoms, part_symptoms


def explain(lesson, case_results, failing, explained, source=None):
    """Symptoms for the failing cases that no known mistake explains, best evidence first: where
    the mistake is (a part or a function), then what the failures share (an in-place change, a
    kind of exception, a relation of the values to the expected ones), then which cases fail."""
    rest = sorted(failing - explained)
    if not rest:
        return []
    results = [case_results[i] for i in rest]
    passing = {i for i in range(len(case_results)) if i not in failing}
    tol = (lesson.spec.rtol, lesson.spec.atol)
    case_traits = {i: tr.traits(c, lesson.reference_source) for i, c in enumerate(lesson.cases)}
    where = (part_symptoms(lesson, results, passing)
             or function_symptoms(lesson, results, passing))
    found = [where] if where else []
    mutated = mutation_symptom(results)
    if mutated:
        return found + [mutated]
    slip = variants.variant_symptom(lesson, results, passing, lambda i: case_results[i].expected)
    if slip:
        (kind_, words), cases = slip
        return found + [symptom(kind_, f"{every(results)} your answer is {words}.", cases)]
    found += error_symptoms(lesson, results, passing)
    budget.check()
    ok = [r for r in results if rel.answers(r)]
    value = value_symptoms(ok, tol, case_traits, source, lesson) if ok else None
    if value:
        found.append(value)
    if not value:
        eps = eps_symptom(lesson, results, tol, source)
        if eps:
            found.append(eps)
    covered = {i for d in found if d is not where for i in d.cases}
    if not covered >= set(rest):
        confined = confined_symptoms(lesson, results, passing, case_traits)
        if confined:
            found.append(confined)
    return found
