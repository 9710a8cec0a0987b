"""The references of lessons 01-04 agree with PyTorch's own implementations (float64, random inputs).

softmax ~ F.softmax; attention ~ F.scaled_dot_product_attention with boolean masks; causal_mask and
causal_attention ~ is_causal=True (square) and the lower-right causal bias (fewer queries than keys);
sigmoid ~ torch.sigmoid; gelu ~ F.gelu(approximate="tanh").
"""
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12


def reference(name):
    return lesson.load(roadmap.load(ROOT), name).namespace()   # dict: function name -> function


L01, L02, L03, L04 = (reference(n) for n in ("01", "02", "03", "04"))


def t(x):
    return torch.from_numpy(np.array(x))   # a copy; keeps 0-d arrays 0-d


def close(got, expected):
    expected = expected.detach().numpy() if isinstance(expected, torch.Tensor) else expected
    assert np.shape(got) == np.shape(expected)
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=ATOL)


def random_mask(rng, shape, p_keep=0.5):
    """A boolean mask whose every row (last axis) has at least one True entry."""
    mask = rng.random(shape) < p_keep
    first = rng.integers(0, shape[-1], size=shape[:-1])
    np.put_along_axis(mask, first[..., None], True, axis=-1)
    return mask


def sdpa(q, k, v, **kwargs):
    return F.scaled_dot_product_attention(t(q), t(k), t(v), **kwargs)


# ---------------------------------------------------------------- softmax (lesson 01 and its copies)

SOFTMAX_CASES = [((7,), -1, 1.0), ((4, 9), -1, 3.0), ((5, 3), 0, 2.0), ((2, 4, 6), 1, 5.0),
                 ((3, 2, 5), -2, 1.0), ((2, 3, 4, 5), -1, 40.0)]


@pytest.mark.parametrize("owner", [L01, L02, L03], ids=["01", "02-given", "03-given"])
@pytest.mark.parametrize("shape,axis,scale", SOFTMAX_CASES)
def test_softmax_matches_torch(owner, shape, axis, scale):
    rng = np.random.default_rng(abs(hash((shape, axis))) % 2**32)
    x = rng.normal(scale=scale, size=shape)
    close(owner["softmax"](x, axis=axis), F.softmax(t(x), dim=axis))


def test_softmax_huge_logits_and_minus_inf_match_torch():
    rng = np.random.default_rng(1)
    x = 1000.0 + rng.normal(scale=5.0, size=(4, 6))
    x[0, 2] = x[3, [0, 5]] = -np.inf
    with np.errstate(all="raise", under="ignore"):
        got = L01["softmax"](x)
    close(got, F.softmax(t(x), dim=-1))


# ---------------------------------------------------------------- attention (lesson 02 and 03's copy)

SHAPES = [  # q, k, v
    ((4, 6), (7, 6), (7, 3)),
    ((3, 4, 5), (3, 6, 5), (3, 6, 2)),
    ((2, 3, 5, 4), (2, 3, 6, 4), (2, 3, 6, 7)),
    ((2, 1, 6), (2, 5, 6), (2, 5, 3)),
    ((3, 4, 2), (3, 1, 2), (3, 1, 5)),
]


@pytest.mark.parametrize("owner", [L02, L03], ids=["02", "03-given"])
@pytest.mark.parametrize("shapes", SHAPES, ids=[str(s[0]) for s in SHAPES])
def test_attention_without_mask_matches_sdpa(owner, shapes):
    rng = np.random.default_rng(len(shapes[0]) * 10 + shapes[0][-1])
    q, k, v = (rng.normal(size=s) for s in shapes)
    close(owner["attention"](q, k, v), sdpa(q, k, v))


MASKED = [  # q, k, v, mask shape
    ((5, 3), (6, 3), (6, 4), (5, 6)),
    ((2, 4, 3), (2, 7, 3), (2, 7, 5), (4, 7)),        # one mask for the whole batch
    ((3, 5, 4), (3, 6, 4), (3, 6, 2), (3, 1, 6)),     # a padding mask
    ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 2), (2, 3, 4, 6)),
    ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 2), (3, 4, 6)),
]


@pytest.mark.parametrize("owner", [L02, L03], ids=["02", "03-given"])
@pytest.mark.parametrize("p_keep", [0.15, 0.5, 0.9])
@pytest.mark.parametrize("shapes", MASKED, ids=[f"{s[0]}-mask{s[3]}" for s in MASKED])
def test_attention_with_boolean_mask_matches_sdpa(owner, p_keep, shapes):
    rng = np.random.default_rng(int(100 * p_keep) + len(shapes[3]))
    q, k, v = (rng.normal(size=s) for s in shapes[:3])
    mask = random_mask(rng, shapes[3], p_keep)
    close(owner["attention"](q, k, v, mask), sdpa(q, k, v, attn_mask=t(mask)))


@pytest.mark.parametrize("masked", [False, True])
def test_attention_with_huge_scores_matches_sdpa(masked):
    rng = np.random.default_rng(7)
    q, k, v = rng.normal(scale=30.0, size=(2, 6, 4)), rng.normal(scale=30.0, size=(2, 9, 4)), \
        rng.normal(size=(2, 9, 3))
    mask = random_mask(rng, (6, 9), 0.3) if masked else None
    with np.errstate(all="raise", under="ignore"):
        got = L02["attention"](q, k, v, mask)
    close(got, sdpa(q, k, v, attn_mask=None if mask is None else t(mask)))


# ---------------------------------------------------------------- causal mask and causal attention

@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_square_causal_mask_is_torch_tril(n):
    got = L03["causal_mask"](n)
    assert got.dtype == np.bool_
    assert np.array_equal(got, torch.ones(n, n, dtype=torch.bool).tril().numpy())
    assert np.array_equal(L03["causal_mask"](n, n), got)


@pytest.mark.parametrize("t_q,t_k", [(1, 1), (1, 6), (2, 5), (3, 8), (4, 4), (6, 7)])
def test_causal_mask_is_torch_lower_right_bias(t_q, t_k):
    got = L03["causal_mask"](t_q, t_k)
    assert got.dtype == np.bool_ and got.shape == (t_q, t_k)
    expected = torch.ones(t_q, t_k, dtype=torch.bool).tril(diagonal=t_k - t_q).numpy()
    assert np.array_equal(got, expected)
    # the same mask, applied through PyTorch's lower-right causal bias, gives the same attention
    rng = np.random.default_rng(t_q * 31 + t_k)
    q, k, v = rng.normal(size=(2, t_q, 3)), rng.normal(size=(2, t_k, 3)), rng.normal(size=(2, t_k, 4))
    close(L02["attention"](q, k, v, got), sdpa(q, k, v, attn_mask=causal_lower_right(t_q, t_k)))


@pytest.mark.parametrize("shape", [(1, 3), (6, 4), (3, 5, 4), (2, 3, 7, 5)])
def test_causal_attention_matches_sdpa_is_causal(shape):
    rng = np.random.default_rng(sum(shape))
    q, k = rng.normal(size=shape), rng.normal(size=shape)
    v = rng.normal(size=shape[:-1] + (shape[-1] + 2,))
    close(L03["causal_attention"](q, k, v), sdpa(q, k, v, is_causal=True))


@pytest.mark.parametrize("t_q,t_k", [(1, 6), (3, 7), (5, 6)])
def test_causal_attention_with_fewer_queries_matches_lower_right_bias(t_q, t_k):
    rng = np.random.default_rng(t_q * 100 + t_k)
    q, k, v = rng.normal(size=(2, 3, t_q, 4)), rng.normal(size=(2, 3, t_k, 4)), \
        rng.normal(size=(2, 3, t_k, 5))
    close(L03["causal_attention"](q, k, v), sdpa(q, k, v, attn_mask=causal_lower_right(t_q, t_k)))


def test_causal_attention_on_the_last_queries_is_the_tail_of_the_full_run():
    rng = np.random.default_rng(11)
    q, k, v = rng.normal(size=(2, 7, 4)), rng.normal(size=(2, 7, 4)), rng.normal(size=(2, 7, 3))
    full = sdpa(q, k, v, is_causal=True).numpy()
    close(L03["causal_attention"](q[:, 4:], k, v), full[:, 4:])


# ---------------------------------------------------------------- sigmoid and gelu

@pytest.mark.parametrize("shape,scale", [((), 2.0), ((1,), 3.0), ((9,), 5.0), ((4, 7), 10.0),
                                         ((2, 3, 5), 40.0)])
def test_sigmoid_matches_torch(shape, scale):
    rng = np.random.default_rng(len(shape) * 7 + int(scale))
    z = np.asarray(rng.normal(scale=scale, size=shape))
    close(np.asarray(L04["sigmoid"](z)), torch.sigmoid(t(z)))


def test_sigmoid_extremes_match_torch_without_warnings():
    z = np.array([-1e4, -1000.0, -750.5, -36.2, -0.3, 0.0, 0.8, 41.7, 720.1, 1000.0, 1e4])
    with np.errstate(all="raise", under="ignore"):
        got = L04["sigmoid"](z)
    close(got, torch.sigmoid(t(z)))


@pytest.mark.parametrize("shape,scale", [((), 1.5), ((1,), 2.0), ((9,), 2.0), ((4, 7), 3.0),
                                         ((2, 3, 5), 0.1)])
def test_gelu_matches_torch_tanh_gelu(shape, scale):
    rng = np.random.default_rng(len(shape) * 13 + int(10 * scale))
    z = np.asarray(rng.normal(scale=scale, size=shape))
    close(np.asarray(L04["gelu"](z)), F.gelu(t(z), approximate="tanh"))


def test_gelu_large_inputs_match_torch_and_differ_from_the_erf_form():
    z = np.array([-1000.0, -210.4, -47.9, -2.7, -2.0, -0.5, 0.0, 0.5, 2.0, 2.7, 88.8, 1000.0])
    with np.errstate(all="raise", under="ignore"):
        got = L04["gelu"](z)
    close(got, F.gelu(t(z), approximate="tanh"))
    exact = F.gelu(t(z), approximate="none").numpy()
    assert np.abs(got - exact).max() > 1e-4   # the tanh form, not the exact one
