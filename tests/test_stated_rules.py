"""What a lesson's Your turn states as its rules is what its SPEC and roadmap enforce."""
import types

import pytest

from grader.lessons import roadmap, stated
from grader.lessons.authoring import Spec
from grader.lessons.build import lessons

from conftest import ROOT


def fake(text, framework="numpy", **spec):
    """A lesson as stated.check reads it: its Your turn, SPEC, framework and cases."""
    return types.SimpleNamespace(
        prose=types.SimpleNamespace(sections={"Your turn": text}),
        spec=Spec(functions=("f",), **spec), entry=types.SimpleNamespace(framework=framework),
        cases=[])


def test_every_lesson_enforces_the_rules_it_states():
    for lesson in lessons(roadmap.load(ROOT)):
        assert stated.check(lesson) == [], lesson.id


def test_in_numpy_needs_a_numpy_framework():
    text = "Write `f(x)` in numpy.\n"
    assert stated.check(fake(text, "numpy")) == []
    problem, = stated.check(fake(text, "torch"))
    assert "in numpy" in problem and "'torch'" in problem
    problem, = stated.check(fake("Write `f(x)` with PyTorch.\n", "numpy"))
    assert "does not say" in problem


def test_a_chapter_framework_that_is_not_a_framework_is_refused(tmp_path):
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "roadmap.toml").write_text(
        'title = "t"\n[[chapter]]\ntitle = "Inference"\nframework = "numpy, then PyTorch"\n'
        'lessons = [{ id = "19-kv-cache", title = "KV" }]\n')
    with pytest.raises(roadmap.RoadmapError, match="19-kv-cache"):
        roadmap.load(tmp_path)


def test_no_loops_stated_is_no_loops_enforced():
    text = "Write `f(x)` in numpy.\n\nRequirements:\n\n- No loops: array operations only.\n"
    assert stated.check(fake(text, no_loops=True)) == []
    problem, = stated.check(fake(text, no_loops=False))
    assert "No loops" in problem
    assert stated.check(fake("Write `f` in numpy.\n\n- Loops are not needed.\n")) == []


@pytest.mark.parametrize("bullet, forbidden, framework, ok", [
    ("- `np.random` is not allowed: the draw comes from `u`.", {"random": "x"}, "numpy", True),
    ("- `np.random` is not allowed: the draw comes from `u`.", {}, "numpy", False),
    ("- Do not use `F.cross_entropy` or\n  `F.nll_loss`: `torch.logsumexp` is fine.",
     {"cross_entropy": "x", "nll_loss": "x"}, "torch", True),
    ("- Do not use `F.cross_entropy` or\n  `F.nll_loss`: `torch.logsumexp` is fine.",
     {"cross_entropy": "x"}, "torch", False),
    ("- No `torch`: derive it by hand.", {}, "numpy", True),   # a numpy lesson forbids torch
    ("- No `torch`: derive it by hand.", {}, "torch", False),
    ("- Write it by hand: `torch.optim` is not allowed.", {"optim": "x"}, "torch", True),
])
def test_names_a_requirement_forbids_are_forbidden_by_the_spec(bullet, forbidden, framework, ok):
    numpy = "in numpy" if framework == "numpy" else "with PyTorch"
    text = f"Write `f(x)` {numpy}.\n\nRequirements:\n\n{bullet}\n"
    assert (stated.check(fake(text, framework, forbidden=forbidden)) == []) is ok
