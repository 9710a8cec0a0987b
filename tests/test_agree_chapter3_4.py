"""The references of lessons 08 and 09 agree with independent implementations.

08 (causal multi-head attention in numpy) is checked against torch.nn.MultiheadAttention with a causal
mask; 09 (attention through F.scaled_dot_product_attention) against softmax(Q K^T / sqrt(d)) written
out by hand in numpy.
"""
from pathlib import Path

import numpy as np
import pytest
import torch

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12


def reference(name):
    return lesson.load(roadmap.load(ROOT), name).namespace()


@pytest.fixture(scope="module")
def mha_forward():
    return reference("08")["mha_forward"]


@pytest.fixture(scope="module")
def solve():
    return reference("09")["solve"]


def torch_mha(x, Wq, Wk, Wv, Wo, n_heads):
    """Causal self-attention by torch.nn.MultiheadAttention, for x of shape (..., T, D)."""
    *batch, t, d = x.shape
    layer = torch.nn.MultiheadAttention(d, n_heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        # torch computes x @ W.T with W of shape (out, in); the lesson computes x @ W
        layer.in_proj_weight.copy_(torch.from_numpy(np.concatenate([Wq.T, Wk.T, Wv.T], axis=0)))
        layer.out_proj.weight.copy_(torch.from_numpy(Wo.T))
        hidden = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)  # True = may NOT attend
        xt = torch.from_numpy(x.reshape(-1, t, d))
        out, _ = layer(xt, xt, xt, attn_mask=hidden, need_weights=False)
    return out.numpy().reshape(*batch, t, d)


@pytest.mark.parametrize("shape, n_heads", [
    ((5, 12), 3),
    ((2, 7, 12), 4),
    ((3, 2, 6, 10), 2),
    ((4, 5, 8), 1),
    ((2, 4, 6), 6),
    ((1, 1, 8), 2),
    ((2, 9, 20), 5),
])
def test_mha_matches_torch_multihead_attention(mha_forward, shape, n_heads):
    rng = np.random.default_rng(sum(shape) * 31 + n_heads)
    d = shape[-1]
    x = rng.normal(size=shape)
    Wq, Wk, Wv, Wo = (rng.normal(scale=d ** -0.5, size=(d, d)) for _ in range(4))
    got = mha_forward(x, Wq, Wk, Wv, Wo, n_heads)
    np.testing.assert_allclose(got, torch_mha(x, Wq, Wk, Wv, Wo, n_heads), rtol=RTOL, atol=ATOL)


def test_mha_is_not_trivially_equal_across_head_counts(mha_forward):
    """Guard: one head and several heads really differ, so the comparison above can fail."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(6, 12))
    W = [rng.normal(scale=0.3, size=(12, 12)) for _ in range(4)]
    assert not np.allclose(torch_mha(x, *W, 1), torch_mha(x, *W, 3), rtol=1e-6)
    np.testing.assert_allclose(mha_forward(x, *W, 3), torch_mha(x, *W, 3), rtol=RTOL, atol=ATOL)


def by_hand(Q, K, V, mask=None):
    """softmax(Q K^T / sqrt(d)) V in numpy, with the scores of hidden keys set to -inf."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v


def mask_of(rng, shape, keep=0.6):
    m = rng.random(shape) < keep
    m[..., 0] = True                      # every query may attend to at least one key
    return np.moveaxis(rng.permuted(np.moveaxis(m, -1, 0), axis=0), 0, -1)


@pytest.mark.parametrize("batch, tq, tk, d, dv, mask_shape", [
    ((), 4, 6, 5, 3, None),
    ((), 3, 7, 4, 2, (3, 7)),
    ((2,), 5, 3, 6, 4, (2, 5, 3)),
    ((2, 3), 4, 6, 8, 5, (4, 6)),
    ((2, 3), 4, 6, 8, 5, (2, 1, 1, 6)),
    ((3,), 1, 5, 2, 7, (3, 1, 5)),
    ((2,), 6, 1, 3, 2, None),
])
def test_solve_matches_the_formula(solve, batch, tq, tk, d, dv, mask_shape):
    rng = np.random.default_rng(tq * 100 + tk * 10 + d + len(batch))
    Q = rng.normal(size=(*batch, tq, d))
    K = rng.normal(size=(*batch, tk, d))
    V = rng.normal(size=(*batch, tk, dv))
    mask = None if mask_shape is None else mask_of(rng, mask_shape)
    got = solve(Q.tolist(), K.tolist(), V.tolist(), None if mask is None else mask.tolist())
    assert isinstance(got, list)
    np.testing.assert_allclose(np.array(got), by_hand(Q, K, V, mask), rtol=RTOL, atol=ATOL)


def test_solve_mask_changes_the_answer(solve):
    """Guard: the mask really hides keys, so the comparison above can fail."""
    rng = np.random.default_rng(3)
    Q, K, V = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    mask = mask_of(rng, (3, 5), keep=0.5)
    assert not mask.all()
    masked = np.array(solve(Q.tolist(), K.tolist(), V.tolist(), mask.tolist()))
    np.testing.assert_allclose(masked, by_hand(Q, K, V, mask), rtol=RTOL, atol=ATOL)
    assert not np.allclose(masked, by_hand(Q, K, V), rtol=1e-6)
