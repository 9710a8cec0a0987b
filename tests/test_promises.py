"""Promises: verify fails a lesson whose promise its prose does not say, names a case the lesson
lacks, or names a breaker (a mistake, an edit of the reference) that every one of its cases
passes; and a lesson that names no promises at all."""
import dataclasses
import types

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT
from grader.lessons import lesson, promises, roadmap
from grader.lessons.authoring import edit, promise

SUM_TO_ONE = "Returns: an array of the same shape whose slices along axis are non-negative and sum to 1."


SOFTMAX = lesson.load(roadmap.load(ROOT), "01")


def softmax_with(*kept):
    """Lesson 01 with `kept` as its SPEC's promises (its cases and mistakes' outcomes computed once)."""
    fresh = lesson.Lesson(SOFTMAX.entry, SOFTMAX.folder)
    for name in ("prose", "reference_source", "cases", "expected", "mistake_table"):
        fresh.__dict__[name] = getattr(SOFTMAX, name)
    spec = dataclasses.replace(SOFTMAX.spec, promises=kept)
    fresh.__dict__["hidden"] = types.SimpleNamespace(SPEC=spec, cases=SOFTMAX.hidden.cases)
    return fresh


def test_the_lessons_own_promises_hold():
    assert promises.check(SOFTMAX) == []


def test_a_breaker_that_passes_the_promises_cases_is_reported():
    """`shift-by-min` overflows only where a row spans more than exp can hold: the cases on the sum
    of each slice do not hold that promise."""
    found = promises.check(softmax_with(
        promise(SUM_TO_ONE, cases=("rows sum to one",), broken_by=("shift-by-min",))))
    assert found == [f"promise '{SUM_TO_ONE}': mistake 'shift-by-min' passes every case that should "
                     "hold it (rows sum to one)"]


def test_an_edit_that_breaks_the_promise_proves_it():
    found = promises.check(softmax_with(promise(
        SUM_TO_ONE, cases=("rows sum to one",),
        broken_by=(edit("    return e / np.sum(e, axis=axis, keepdims=True)", "    return e"),))))
    assert found == []


@pytest.mark.parametrize("bad, words", [
    (promise("Returns the logits unchanged.", cases=("rows sum to one",),
             broken_by=("not-normalised",)), "is not said in Your turn or Examples"),
    (promise(SUM_TO_ONE, cases=("rows sum to two",), broken_by=("not-normalised",)),
     "names cases the lesson lacks: rows sum to two"),
    (promise(SUM_TO_ONE, cases=("rows sum to one",), broken_by=()), "names nothing that breaks it"),
    (promise(SUM_TO_ONE, cases=("rows sum to one",), broken_by=("no-such-mistake",)),
     "which mistakes.py lacks"),
    (promise(SUM_TO_ONE, cases=("rows sum to one",), broken_by=(edit("axis=axis", "axis=0"),)),
     "holds `axis=axis` 2 times, not once"),
    (promise(SUM_TO_ONE, cases=("rows sum to one",), broken_by=(edit("import numpy as np", ""),)),
     "is not inside a solution region"),
])
def test_a_promise_that_proves_nothing_is_reported(bad, words):
    found = promises.check(softmax_with(bad))
    assert len(found) == 1 and words in found[0], found


def test_a_lesson_without_promises_fails():
    assert "SPEC names no promises" in promises.check(softmax_with())[0]


LESSON_20 = lesson.load(roadmap.load(ROOT), "20")
SAID = [p.says for p in LESSON_20.spec.promises]
CONTRACT = promises.plain(LESSON_20.prose.sections["Your turn"] + LESSON_20.prose.sections["Examples"])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SAID), st.data())
def test_a_quote_is_found_whatever_its_backticks_emphasis_and_line_breaks(said, data):
    """Prose wraps and marks up what a promise quotes: the quote matches however it is broken and
    marked, and a changed word does not match."""
    words = said.split()
    joins = data.draw(st.lists(st.sampled_from([" ", "\n", "  ", "\n  "]), min_size=len(words),
                               max_size=len(words)))
    marks = data.draw(st.lists(st.sampled_from(["", "`", "*", "**"]), min_size=len(words),
                               max_size=len(words)))
    marked = "".join(f"{m}{w}{m}{j}" for w, m, j in zip(words, marks, joins))
    assert promises.plain(marked) in CONTRACT
    at = data.draw(st.integers(0, len(words) - 1))
    changed = words[:at] + ["zebra" + words[at]] + words[at + 1:]
    assert promises.plain(" ".join(changed)) not in CONTRACT
