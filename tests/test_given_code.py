"""Code a lesson gives in its stub behaves exactly as the lesson that teaches it."""
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from grader.lessons import build, roadmap

ROOT = Path(__file__).resolve().parent.parent
LESSONS = build.lessons(roadmap.load(ROOT))
TEACHER = {fn: l for l in LESSONS for fn in l.spec.functions}


@dataclass(frozen=True)
class Generator:
    """Stands for a torch.Generator seeded with `seed`, made afresh for each call."""
    seed: int


def inputs(fn, rng):
    """Inputs with distinct dimensions for each function a later lesson gives (numpy arrays, also
    inside dicts, become tensors for a torch lesson)."""
    x = rng.normal(size=(2, 5, 6))
    w = [rng.normal(size=(6, 6)) for _ in range(4)]
    grads = {"a": 3 * rng.normal(size=(2, 3)), "b": rng.normal(size=4)}
    moments = lambda: {"a": rng.normal(size=(2, 3)), "b": rng.normal(size=4)}
    state = {"step": 3, "m": moments(), "v": {k: v ** 2 for k, v in moments().items()}}
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
        "get_batch": [(np.arange(40) * 7 % 13, 3, 5, Generator(1)), (np.arange(12), 4, 11, Generator(2))],
        "lr_at": [(s, 1e-3, 1e-4, 3, 10) for s in range(13)] + [(s, 6e-4, 0.0, 0, 5) for s in range(7)],
        "clip_grad_norm": [(grads, 1.0), (grads, 100.0), (grads, 0.5, math.inf), (grads, 1.0, 1.0)],
        "adamw_step": [(moments(), grads, state, 0.1), (moments(), grads, state, 1e-2, (0.8, 0.99), 1e-6, 0.1)],
    }[fn]


def run(lesson, fn, args):
    """Call a given function; a torch lesson's copy gets tensors (copies, also inside dicts) and its
    answer comes back as numpy, its floating tensors in float64."""
    if lesson.entry.framework != "torch":
        return fn(*args)
    import torch

    def to_torch(a):
        if isinstance(a, Generator):
            return torch.Generator().manual_seed(a.seed)
        if isinstance(a, dict):
            return {k: to_torch(v) for k, v in a.items()}
        return torch.tensor(a) if isinstance(a, np.ndarray) else a

    def to_numpy(out):
        if isinstance(out, (tuple, list)):
            return [to_numpy(o) for o in out]
        if isinstance(out, dict):
            return {k: to_numpy(v) for k, v in out.items()}
        if isinstance(out, torch.Tensor):
            assert not out.is_floating_point() or out.dtype == torch.float64, out.dtype
            return out.numpy()
        return out

    return to_numpy(fn(*map(to_torch, args)))


def assert_same(got, want):
    """got equals want, also inside lists and dicts."""
    assert type(got) is type(want) or not isinstance(want, (list, dict)), (type(got), type(want))
    if isinstance(want, dict):
        assert got.keys() == want.keys()
        for k in want:
            assert_same(got[k], want[k])
    elif isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


GIVEN = [(l, fn) for l in LESSONS for fn in l.namespace()
         if fn in TEACHER and TEACHER[fn] is not l and fn not in l.spec.functions]


@pytest.mark.parametrize("lesson, fn", GIVEN, ids=[f"{l.id}:{fn}" for l, fn in GIVEN])
def test_given_function_matches_its_lesson(lesson, fn):
    given, taught = lesson.namespace()[fn], TEACHER[fn].namespace()[fn]
    for args in inputs(fn, np.random.default_rng(7)):
        assert_same(run(lesson, given, args), run(TEACHER[fn], taught, args))


def test_lesson_14_gives_rmsnorm_and_mha_forward():
    assert {fn for l, fn in GIVEN if l.id == "14-llama-block"} >= {"rmsnorm", "mha_forward"}


def test_lessons_16_and_17_give_rope_and_mha_forward():
    given = {(l.id, fn) for l, fn in GIVEN}
    assert ("16-mha-rope", "rope") in given and ("17-gqa", "mha_forward") in given


def test_lesson_12_gives_gelu_and_layer_norm():
    assert {fn for l, fn in GIVEN if l.id == "12-gpt-forward"} == {"gelu", "layer_norm"}


def test_lesson_27_gives_the_pieces_of_lessons_22_to_26():
    assert {fn for l, fn in GIVEN if l.id == "27-training-loop"} >= {
        "adamw_step", "get_batch", "lr_at", "clip_grad_norm"}
