"""Lesson 21's reference agrees with PyTorch autograd through F.cross_entropy, and with finite
differences of its own loss.

`ce_loss_and_grad(logits, targets, ignore_index)` returns the loss and its gradient with respect
to the logits; torch computes the same loss with `F.cross_entropy(..., ignore_index=...)` (mean
over the kept rows) and the gradient by backpropagation, both in float64.
"""
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12
ce_loss_and_grad = lesson.load(roadmap.load(ROOT), "21").namespace()["ce_loss_and_grad"]


def torch_loss_and_grad(logits, targets, ignore_index):
    z = torch.tensor(logits, dtype=torch.float64, requires_grad=True)
    loss = F.cross_entropy(z, torch.from_numpy(targets), ignore_index=ignore_index)
    loss.backward()
    return loss.item(), z.grad.numpy()


def draw(rng, n, v, n_ignored, ignore_index, scale):
    logits = rng.normal(scale=scale, size=(n, v))
    targets = rng.integers(0, v, size=n)
    if ignore_index in range(v):            # a real class as the ignore index: avoid it elsewhere
        targets = np.where(targets == ignore_index, (ignore_index + 1) % v, targets)
    targets[rng.choice(n, size=n_ignored, replace=False)] = ignore_index
    return logits, targets


@pytest.mark.parametrize("n, v, n_ignored, ignore_index, scale", [
    (6, 9, 0, -100, 1.0),
    (8, 5, 3, -100, 2.0),
    (12, 4, 11, -100, 1.5),
    (7, 6, 2, 0, 1.0),
    (5, 11, 1, -1, 3.0),
    (1, 7, 0, -100, 1.0),
    (20, 30, 5, 3, 8.0),
])
def test_matches_torch_autograd(n, v, n_ignored, ignore_index, scale):
    rng = np.random.default_rng(n * 100 + v * 10 + n_ignored)
    logits, targets = draw(rng, n, v, n_ignored, ignore_index, scale)
    loss, grad = ce_loss_and_grad(logits, targets, ignore_index=ignore_index)
    want_loss, want_grad = torch_loss_and_grad(logits, targets, ignore_index)
    assert isinstance(loss, float)
    np.testing.assert_allclose(loss, want_loss, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(grad, want_grad, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("offset", [1000.0, -1000.0])
def test_huge_logits_match_torch(offset):
    rng = np.random.default_rng(3)
    logits, targets = draw(rng, 5, 6, 1, -100, 3.0)
    logits = logits + offset
    logits[0, targets[0]] -= 1000.0          # a target whose probability rounds to 0
    with np.errstate(all="raise", under="ignore"):
        loss, grad = ce_loss_and_grad(logits, targets)
    want_loss, want_grad = torch_loss_and_grad(logits, targets, -100)
    np.testing.assert_allclose(loss, want_loss, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(grad, want_grad, rtol=RTOL, atol=ATOL)


def test_matches_finite_differences():
    rng = np.random.default_rng(8)
    logits, targets = draw(rng, 5, 7, 2, -100, 1.5)
    _, grad = ce_loss_and_grad(logits, targets)
    h = 1e-5
    numeric = np.zeros_like(logits)
    for i in range(logits.shape[0]):
        for j in range(logits.shape[1]):
            step = np.zeros_like(logits)
            step[i, j] = h
            up = ce_loss_and_grad(logits + step, targets)[0]
            down = ce_loss_and_grad(logits - step, targets)[0]
            numeric[i, j] = (up - down) / (2 * h)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)
    assert np.all(grad[targets == -100] == 0)
    np.testing.assert_allclose(grad.sum(axis=1), 0.0, atol=1e-15)
