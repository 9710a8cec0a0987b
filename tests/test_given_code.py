"""Code a lesson gives in its stub behaves exactly as the lesson that teaches it."""
from pathlib import Path

import numpy as np
import pytest

from grader.lessons import build, roadmap

ROOT = Path(__file__).resolve().parent.parent
LESSONS = build.lessons(roadmap.load(ROOT))
TEACHER = {fn: l for l in LESSONS for fn in l.spec.functions}


def inputs(fn, rng):
    """Real-valued inputs with distinct dimensions for each function a later lesson gives."""
    x = rng.normal(size=(2, 5, 6))
    w = [rng.normal(size=(6, 6)) for _ in range(4)]
    return {
        "softmax": [(x,), (x, 1)],
        "attention": [(rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4)), rng.normal(size=(2, 5, 7)),
                       rng.random((3, 5)) > 0.3)],
        "causal_mask": [(4,), (3, 7), (1, 1)],
        "causal_attention": [(rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 6, 4)),
                              rng.normal(size=(2, 6, 5)))],
        "rmsnorm": [(x, rng.normal(size=6))],
        "split_heads": [(x, 3), (x, 2)],
        "merge_heads": [(rng.normal(size=(2, 3, 5, 4)),)],
        "mha_forward": [(x, *w, 3), (x[0], *w, 2)],
        "rope": [(rng.normal(size=(2, 3, 5, 6)), np.arange(4, 9)), (x, np.array([3, 0, 7, 1, 9]), 500.0)],
        "gelu": [(rng.normal(scale=3.0, size=(2, 5, 6)),)],
        "layer_norm": [(x, rng.normal(size=6), rng.normal(size=6)), (1e-3 * x, rng.normal(size=6),
                                                                     rng.normal(size=6))],
    }[fn]


def run(lesson, fn, args):
    """Call a given function; a torch lesson's copy gets tensors and its answer comes back as numpy."""
    if lesson.entry.framework != "torch":
        return fn(*args)
    import torch
    out = fn(*(torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args))
    assert out.dtype == torch.float64
    return out.numpy()


GIVEN = [(l, fn) for l in LESSONS for fn in l.namespace()
         if fn in TEACHER and TEACHER[fn] is not l and fn not in l.spec.functions]


@pytest.mark.parametrize("lesson, fn", GIVEN, ids=[f"{l.id}:{fn}" for l, fn in GIVEN])
def test_given_function_matches_its_lesson(lesson, fn):
    given, taught = lesson.namespace()[fn], TEACHER[fn].namespace()[fn]
    for args in inputs(fn, np.random.default_rng(7)):
        np.testing.assert_allclose(run(lesson, given, args), run(TEACHER[fn], taught, args),
                                   rtol=1e-12, atol=1e-14)


def test_lesson_14_gives_rmsnorm_and_mha_forward():
    assert {fn for l, fn in GIVEN if l.id == "14-llama-block"} >= {"rmsnorm", "mha_forward"}


def test_lessons_16_and_17_give_rope_and_mha_forward():
    given = {(l.id, fn) for l, fn in GIVEN}
    assert ("16-mha-rope", "rope") in given and ("17-gqa", "mha_forward") in given


def test_lesson_12_gives_gelu_and_layer_norm():
    assert {fn for l, fn in GIVEN if l.id == "12-gpt-forward"} == {"gelu", "layer_norm"}
