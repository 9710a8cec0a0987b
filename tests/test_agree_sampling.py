"""Lesson 18's reference agrees with Hugging Face transformers' logits processors.

TemperatureLogitsWarper, TopKLogitsWarper and TopPLogitsWarper, applied in that order to float64
scores, then a softmax, give the same probabilities (and so the same kept set) as
`next_token_probs`. Where the conventions differ, the tests say so:
* temperature 0: transformers refuses it (greedy decoding is `do_sample=False` there); the lesson
  defines it as one-hot on the first maximal logit, which is what torch.argmax picks;
* top-p ties: transformers cuts the sorted row at a position, so of two tokens tied at the
  boundary its sort keeps one; the lesson keeps both (as top-k does in both).
`sample` agrees with numpy's searchsorted(side="right") on the CDF, and drawing with uniform u
reproduces the probabilities.
"""
from pathlib import Path

import numpy as np
import pytest
import torch
from transformers.generation.logits_process import (TemperatureLogitsWarper, TopKLogitsWarper,
                                                     TopPLogitsWarper)

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12
REF = lesson.load(roadmap.load(ROOT), "18").namespace()
next_token_probs, sample = REF["next_token_probs"], REF["sample"]


def hf_probs(logits, temperature=1.0, top_k=None, top_p=None):
    scores = torch.from_numpy(np.array(logits, dtype=np.float64).reshape(-1, logits.shape[-1]))
    ids = torch.zeros((scores.shape[0], 1), dtype=torch.long)
    if temperature != 1.0:
        scores = TemperatureLogitsWarper(float(temperature))(ids, scores)
    if top_k is not None:
        scores = TopKLogitsWarper(top_k)(ids, scores)
    if top_p is not None:
        scores = TopPLogitsWarper(top_p)(ids, scores)
    return torch.softmax(scores, dim=-1).numpy().reshape(logits.shape)


def far_from_boundaries(logits, temperature, top_k, top_p, margin=1e-6):
    """Whether no running total of the top-k survivors lies within `margin` of top_p, so that the
    two libraries' different roundings cannot disagree about the cut."""
    z = logits / temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z, axis=-1)[..., -min(top_k, z.shape[-1]), None], z, -np.inf)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    cum = np.cumsum(-np.sort(-p, axis=-1), axis=-1)
    return np.all(np.abs(cum - top_p) > margin)


SETTINGS = [  # shape, temperature, top_k, top_p
    ((7,), 1.0, None, None),
    ((3, 11), 0.7, None, None),
    ((2, 3, 9), 1.8, 4, None),
    ((4, 13), 1.0, None, 0.9),
    ((5, 10), 0.6, None, 0.5),
    ((3, 12), 1.3, 6, 0.75),
    ((2, 8), 0.9, 20, 0.95),
    ((6, 16), 1.0, 1, None),
    ((3, 9), 2.0, 3, 0.3),
    ((4, 20), 0.8, 12, 0.6),
]


@pytest.mark.parametrize("shape, temperature, top_k, top_p", SETTINGS)
def test_matches_transformers_warpers(shape, temperature, top_k, top_p):
    rng = np.random.default_rng(sum(shape) * 7 + int(temperature * 10) + (top_k or 0))
    for _ in range(5):
        logits = rng.normal(scale=2.0, size=shape)
        if top_p is None or far_from_boundaries(logits, temperature, top_k, top_p):
            break
    else:
        pytest.fail("could not draw logits away from the top-p boundary")
    got = next_token_probs(logits, temperature, top_k=top_k, top_p=top_p)
    want = hf_probs(logits, temperature, top_k, top_p)
    np.testing.assert_array_equal(got > 0, want > 0)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def test_top_k_ties_are_kept_by_both():
    logits = np.array([[1.5, 0.25, 0.75, 0.75, -1.0, 0.75], [2.0, 1.0, 1.0, 0.5, 1.0, -0.5]])
    got = next_token_probs(logits, top_k=2)
    np.testing.assert_allclose(got, hf_probs(logits, top_k=2), rtol=RTOL, atol=ATOL)
    assert (got > 0).sum(axis=-1).tolist() == [4, 4]


def test_top_p_keeps_at_least_one_token_in_both():
    rng = np.random.default_rng(5)
    logits = rng.normal(scale=3.0, size=(4, 9))
    got = next_token_probs(logits, 0.8, top_p=1e-4)
    np.testing.assert_allclose(got, hf_probs(logits, 0.8, top_p=1e-4), rtol=RTOL, atol=ATOL)
    assert ((got > 0).sum(axis=-1) == 1).all()


def test_top_p_ties_at_the_boundary_differ_by_design():
    """The lesson keeps both tokens tied at the cut; transformers keeps the one its sort puts first."""
    logits = np.log(np.array([0.4, 0.2, 0.2, 0.1, 0.1]))
    got = next_token_probs(logits, top_p=0.5)
    want = hf_probs(logits, top_p=0.5)
    assert (got > 0).sum() == 3 and (want > 0).sum() == 2
    np.testing.assert_allclose(got, [0.5, 0.25, 0.25, 0, 0], rtol=RTOL, atol=ATOL)


def test_temperature_zero_is_greedy_where_transformers_refuses_it():
    with pytest.raises(ValueError):
        TemperatureLogitsWarper(0.0)
    logits = np.array([[0.5, 2.0, -1.0, 2.0], [3.0, 1.0, 2.0, 0.0]])
    first = torch.argmax(torch.from_numpy(logits), dim=-1).numpy()
    np.testing.assert_array_equal(next_token_probs(logits, 0.0), np.eye(4)[first])


def test_sample_is_searchsorted_right():
    rng = np.random.default_rng(11)
    probs = next_token_probs(rng.normal(size=(50, 8)), top_k=5)
    u = rng.random(50)
    u[:10] = np.cumsum(probs[:10], axis=-1)[np.arange(10), rng.integers(0, 6, size=10)]
    expected = [int(np.searchsorted(np.cumsum(p), x, side="right")) for p, x in zip(probs, u)]
    assert sample(probs, u).tolist() == expected
    assert all(sample(p, float(x)) == e for p, x, e in zip(probs, u, expected))


def test_sampling_with_uniform_u_reproduces_the_probabilities():
    probs = next_token_probs(np.array([2.0, 1.0, 0.1, 1.5, -0.5]), 0.8, top_k=4)
    u = (np.arange(200_000) + 0.5) / 200_000        # an even grid of u over [0, 1)
    counts = np.bincount(sample(np.broadcast_to(probs, (u.size, 5)), u), minlength=5)
    np.testing.assert_allclose(counts / u.size, probs, atol=1e-5)
