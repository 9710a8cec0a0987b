"""Known mistakes: a learner matches a mistake fully, or partly when they guarded against some of it."""
from pathlib import Path

import pytest

from grader.judge.diagnose import diagnose
from grader.lessons import build, roadmap

ROOT = Path(__file__).resolve().parent.parent
LESSONS = {l.id: l for l in build.lessons(roadmap.load(ROOT))}


def a_mistake_failing_with_values(lesson, at_least=2):
    """A mistake of the lesson that fails several cases, returning values on at least one."""
    for m, outcomes, fails in lesson.mistake_table:
        if len(fails) >= at_least and any(outcomes[i].status == "ok" for i in fails):
            return m, outcomes, fails
    pytest.skip(f"{lesson.id} has no such mistake")


@pytest.mark.parametrize("lesson_id", ["01-softmax", "05-layer-norm", "11-embeddings", "19-kv-cache"])
def test_a_learner_who_avoided_part_of_a_mistake_is_still_told_of_it(lesson_id):
    lesson = LESSONS[lesson_id]
    m, theirs, fails = a_mistake_failing_with_values(lesson)
    valued = next(i for i in sorted(fails) if theirs[i].status == "ok")
    kept = {valued}                                   # the learner fixed every other failure
    outcomes = [theirs[i] if i in kept else e for i, e in enumerate(lesson.expected)]
    found = diagnose(lesson, outcomes, kept)
    assert m.id in [d.mistake for d in found]
    mine = next(d for d in found if d.mistake == m.id)
    assert mine.partial and mine.cases == frozenset(kept)


@pytest.mark.parametrize("lesson_id", ["01-softmax", "11-embeddings"])
def test_the_full_match_comes_before_a_partial_one(lesson_id):
    lesson = LESSONS[lesson_id]
    for m, theirs, fails in lesson.mistake_table:
        found = diagnose(lesson, theirs, fails)
        assert found[0].mistake == m.id and not found[0].partial


def test_a_shared_error_alone_is_not_enough_for_a_partial_match():
    lesson = LESSONS["11-embeddings"]
    for m, theirs, fails in lesson.mistake_table:
        errors = {i for i in fails if theirs[i].status == "error"}
        if errors and errors < fails:
            outcomes = [theirs[i] if i in errors else e for i, e in enumerate(lesson.expected)]
            assert m.id not in [d.mistake for d in diagnose(lesson, outcomes, errors)
                                if d.partial]
            return
    pytest.skip("no mistake of lesson 11 fails with an error and values both")
