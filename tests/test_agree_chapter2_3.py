"""Lessons 05-07 agree with PyTorch: layer norm, RMSNorm, and splitting/merging attention heads.

Each reference is compared with PyTorch's own implementation (or, for the heads, an independent
formulation with torch views, transposes and permutes) on random float64 inputs of several shapes.
"""
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
TIGHT = dict(rtol=1e-10, atol=1e-12)


def reference(name):
    return lesson.load(roadmap.load(ROOT), name).namespace()


layer_norm = reference("05")["layer_norm"]
rmsnorm = reference("06")["rmsnorm"]
heads = reference("07")
split_heads, merge_heads = heads["split_heads"], heads["merge_heads"]

SHAPES = [(9,), (5, 7), (1, 4), (2, 3, 6), (3, 2, 4, 5)]


def as_torch(a):
    return torch.from_numpy(np.array(a, dtype=np.float64))


# ---------------------------------------------------------------------------------------------
# 05 layer norm against F.layer_norm and torch.nn.LayerNorm
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scale, offset", [(1.0, 0.0), (1e-3, 0.0), (1e3, 0.0), (2.0, 50.0), (1.0, 1e4)])
def test_layer_norm_matches_torch(shape, scale, offset):
    rng = np.random.default_rng(sum(shape) + int(scale * 7))
    d = shape[-1]
    x = offset + scale * rng.normal(size=shape)
    gamma, beta = rng.normal(1.0, 0.5, size=d), rng.normal(0.0, 0.5, size=d)
    want = F.layer_norm(as_torch(x), (d,), weight=as_torch(gamma), bias=as_torch(beta), eps=1e-5)
    got = layer_norm(x, gamma, beta)
    assert got.shape == x.shape
    # Far from zero, x - mean is only known to about ulp(offset) ~ 1e-12: loosen atol to match
    # (a one-pass variance, mean(x**2) - mean**2, is still off by ~1e-8 there).
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-10, atol=1e-12 * max(1.0, offset / 100))


@pytest.mark.parametrize("eps", [1e-12, 1e-5, 0.1, 2.0])
def test_layer_norm_eps_matches_torch_module(eps):
    rng = np.random.default_rng(5)
    x = rng.normal(scale=0.3, size=(2, 4, 6))
    gamma, beta = rng.normal(1.0, 0.5, size=6), rng.normal(size=6)
    module = torch.nn.LayerNorm(6, eps=eps, dtype=torch.float64)
    with torch.no_grad():
        module.weight.copy_(as_torch(gamma))
        module.bias.copy_(as_torch(beta))
        want = module(as_torch(x)).numpy()
    np.testing.assert_allclose(layer_norm(x, gamma, beta, eps=eps), want, **TIGHT)


def test_layer_norm_constant_vectors_give_beta():
    rng = np.random.default_rng(6)
    x = np.repeat(rng.normal(size=(3, 1)), 5, axis=1)
    gamma, beta = rng.normal(size=5), rng.normal(size=5)
    want = F.layer_norm(as_torch(x), (5,), as_torch(gamma), as_torch(beta), eps=1e-5).numpy()
    np.testing.assert_allclose(layer_norm(x, gamma, beta), want, **TIGHT)
    np.testing.assert_allclose(want, np.broadcast_to(beta, x.shape), **TIGHT)


# ---------------------------------------------------------------------------------------------
# 06 RMSNorm against F.rms_norm and torch.nn.RMSNorm
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scale, offset", [(1.0, 0.0), (1e-3, 0.0), (1e3, 0.0), (0.5, 3.0)])
def test_rmsnorm_matches_torch(shape, scale, offset):
    rng = np.random.default_rng(100 + sum(shape) + int(scale * 7))
    d = shape[-1]
    x = offset + scale * rng.normal(size=shape)
    gamma = rng.normal(1.0, 0.6, size=d)
    want = F.rms_norm(as_torch(x), (d,), weight=as_torch(gamma), eps=1e-5)
    got = rmsnorm(x, gamma)
    assert got.shape == x.shape
    np.testing.assert_allclose(got, want.numpy(), **TIGHT)


@pytest.mark.parametrize("eps", [1e-12, 1e-5, 0.1, 2.0])
def test_rmsnorm_eps_matches_torch_module(eps):
    rng = np.random.default_rng(7)
    x = rng.normal(scale=0.3, size=(3, 2, 8))
    gamma = rng.normal(1.0, 0.6, size=8)
    module = torch.nn.RMSNorm(8, eps=eps, dtype=torch.float64)
    with torch.no_grad():
        module.weight.copy_(as_torch(gamma))
        want = module(as_torch(x)).numpy()
    np.testing.assert_allclose(rmsnorm(x, gamma, eps=eps), want, **TIGHT)


def test_rmsnorm_zero_vector_stays_zero():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(3, 6))
    x[1] = 0.0
    gamma = rng.normal(size=6)
    want = F.rms_norm(as_torch(x), (6,), as_torch(gamma), eps=1e-5).numpy()
    np.testing.assert_allclose(rmsnorm(x, gamma), want, **TIGHT)
    assert np.all(want[1] == 0.0)


# ---------------------------------------------------------------------------------------------
# 07 heads against torch view/transpose, unflatten/permute and split/stack
# ---------------------------------------------------------------------------------------------

HEAD_SHAPES = [((5, 12), 3), ((2, 7, 15), 5), ((2, 3, 5, 28), 4), ((3, 6, 5), 1), ((4, 6), 6),
               ((3, 1, 10), 2)]


def torch_split_view(x, n_heads):
    """The usual PyTorch idiom: view as (..., T, H, Dh), then transpose time and heads."""
    *lead, t, d = x.shape
    return x.view(*lead, t, n_heads, d // n_heads).transpose(-3, -2)


def torch_split_permute(x, n_heads):
    """unflatten the feature axis, then permute the axes explicitly."""
    y = x.unflatten(-1, (n_heads, -1))
    n = y.dim()
    return y.permute(*range(n - 3), n - 2, n - 3, n - 1)


def torch_split_chunks(x, n_heads):
    """Cut the feature axis into consecutive blocks and stack them as heads."""
    return torch.stack(torch.chunk(x, n_heads, dim=-1), dim=-3)


def torch_merge(x):
    """The usual PyTorch idiom: transpose back, make contiguous, view as (..., T, H*Dh)."""
    *lead, h, t, dh = x.shape
    return x.transpose(-3, -2).contiguous().view(*lead, t, h * dh)


def torch_merge_cat(x):
    """Concatenate the heads along the feature axis, head 0 first."""
    return torch.cat(torch.unbind(x, dim=-3), dim=-1)


@pytest.mark.parametrize("shape, n_heads", HEAD_SHAPES)
def test_split_heads_matches_torch(shape, n_heads):
    x = np.random.default_rng(sum(shape)).normal(size=shape)
    got = split_heads(x, n_heads)
    for formulation in (torch_split_view, torch_split_permute, torch_split_chunks):
        want = formulation(as_torch(x), n_heads).numpy()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, **TIGHT)


@pytest.mark.parametrize("shape", [(3, 5, 4), (2, 4, 6, 3), (3, 2, 5, 4, 7), (2, 3, 1, 5), (1, 6, 9)])
def test_merge_heads_matches_torch(shape):
    x = np.random.default_rng(sum(shape)).normal(size=shape)
    got = merge_heads(x)
    for formulation in (torch_merge, torch_merge_cat):
        want = formulation(as_torch(x)).numpy()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, **TIGHT)


@pytest.mark.parametrize("shape, n_heads", HEAD_SHAPES)
def test_heads_round_trip(shape, n_heads):
    x = np.random.default_rng(1 + sum(shape)).normal(size=shape)
    np.testing.assert_array_equal(merge_heads(split_heads(x, n_heads)), x)
    np.testing.assert_array_equal(torch_merge(torch_split_view(as_torch(x), n_heads)).numpy(), x)
    *lead, t, d = shape
    h = np.random.default_rng(2 + sum(shape)).normal(size=(*lead, n_heads, t, d // n_heads))
    np.testing.assert_array_equal(split_heads(merge_heads(h), n_heads), h)


def test_split_heads_feeds_torch_attention_like_multihead():
    """Per-head attention on split heads, merged back, equals torch's multi-head attention."""
    rng = np.random.default_rng(9)
    b, t, d, n_heads = 2, 5, 12, 3
    q, k, v = (rng.normal(size=(b, t, d)) for _ in range(3))
    per_head = F.scaled_dot_product_attention(
        *(as_torch(split_heads(a, n_heads)) for a in (q, k, v)), is_causal=True)
    got = merge_heads(per_head.numpy())
    mha = torch.nn.MultiheadAttention(d, n_heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(d, dtype=torch.float64).repeat(3, 1))
        mha.out_proj.weight.copy_(torch.eye(d, dtype=torch.float64))
        mask = torch.ones(t, t, dtype=torch.bool).triu(1)   # True: may NOT attend (torch's MHA)
        want, _ = mha(as_torch(q), as_torch(k), as_torch(v), attn_mask=mask, need_weights=False)
    np.testing.assert_allclose(got, want.numpy(), **TIGHT)
