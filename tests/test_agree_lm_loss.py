"""Lesson 13's reference agrees with PyTorch's cross-entropy (float64, random inputs).

The lesson's loss shifts inside: the logits at position t are scored against ids[t + 1]. So it must
equal `F.cross_entropy(logits[:, :-1].reshape(-1, V), ids[:, 1:].reshape(-1), ignore_index=...)`,
whose default reduction is the mean over the targets that are not ignored.
"""
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12
lm_loss = lesson.load(roadmap.load(ROOT), "13").namespace()["lm_loss"]


def torch_loss(logits, ids, ignore_index=-100):
    V = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, V), ids[:, 1:].reshape(-1),
                           ignore_index=ignore_index)


def inputs(seed, b, t, v, scale=2.0, offset=0.0, p_ignore=0.3, ignore_index=-100):
    rng = np.random.default_rng(seed)
    logits = torch.from_numpy(offset + rng.normal(scale=scale, size=(b, t, v)))
    ids = rng.integers(0, v, size=(b, t))
    if ignore_index >= 0:          # a padding id that is a real token: keep it out of the text
        ids[ids == ignore_index] = (ignore_index + 1) % v
    ids[:, 1:][rng.random((b, t - 1)) < p_ignore] = ignore_index
    ids[:, 1] = rng.integers(0, v, size=b)   # at least one kept target per sequence
    if ignore_index >= 0:
        ids[:, 1][ids[:, 1] == ignore_index] = (ignore_index + 1) % v
    return logits, torch.from_numpy(ids)


SHAPES = [(1, 2, 3), (3, 6, 7), (2, 9, 5), (4, 5, 31), (1, 12, 4), (5, 3, 11)]


@pytest.mark.parametrize("b, t, v", SHAPES)
@pytest.mark.parametrize("p_ignore", [0.0, 0.3, 0.7])
def test_lm_loss_matches_cross_entropy(b, t, v, p_ignore):
    logits, ids = inputs(b * 100 + t * 10 + v, b, t, v, p_ignore=p_ignore)
    got, expected = lm_loss(logits, ids), torch_loss(logits, ids)
    assert got.dtype == torch.float64 and got.shape == ()
    torch.testing.assert_close(got, expected, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("ignore_index", [0, 3])
def test_a_padding_id_that_is_a_real_token(ignore_index):
    logits, ids = inputs(ignore_index, 3, 8, 6, ignore_index=ignore_index)
    torch.testing.assert_close(lm_loss(logits, ids, ignore_index=ignore_index),
                               torch_loss(logits, ids, ignore_index), rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("offset, scale", [(1e4, 30.0), (-1e4, 30.0), (0.0, 800.0)])
def test_huge_logits_match_cross_entropy(offset, scale):
    logits, ids = inputs(int(scale), 3, 7, 9, scale=scale, offset=offset)
    got = lm_loss(logits, ids)
    assert torch.isfinite(got)
    torch.testing.assert_close(got, torch_loss(logits, ids), rtol=RTOL, atol=ATOL)


def test_the_gradient_matches_cross_entropy():
    logits, ids = inputs(5, 2, 6, 8)
    a, b = logits.clone().requires_grad_(), logits.clone().requires_grad_()
    lm_loss(a, ids).backward()
    torch_loss(b, ids).backward()
    torch.testing.assert_close(a.grad, b.grad, rtol=RTOL, atol=ATOL)
