"""Lesson 19's reference, chained through its own caches, agrees with lesson 08's `mha_forward`
on the whole sequence: a prefill and then chunks of any sizes give the same rows (float64, 1e-10).
"""
import copy
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12
REGISTRY = roadmap.load(ROOT)
decode_step = lesson.load(REGISTRY, "19").namespace()["decode_step"]
mha_forward = lesson.load(REGISTRY, "08").namespace()["mha_forward"]


def run_in_chunks(x, W, n_heads, sizes):
    """Feed x chunk by chunk, each step taking the cache the previous one returned."""
    cache, outputs, start = None, [], 0
    for size in sizes:
        before = copy.deepcopy(cache)
        y, new_cache = decode_step(x[..., start:start + size, :], cache, *W, n_heads)
        if before is not None:                      # the step left its input cache as it was
            for key in "kv":
                np.testing.assert_array_equal(cache[key], before[key])
        cache, start = new_cache, start + size
        outputs.append(y)
    return np.concatenate(outputs, axis=-2), cache


def check(x, W, n_heads, sizes):
    got, cache = run_in_chunks(x, W, n_heads, sizes)
    np.testing.assert_allclose(got, mha_forward(x, *W, n_heads), rtol=RTOL, atol=ATOL)
    *batch, t, d = x.shape
    assert cache["k"].shape == cache["v"].shape == (*batch, n_heads, t, d // n_heads)


@pytest.mark.parametrize("batch, d, n_heads, sizes", [
    ((), 12, 3, (5, 1, 1, 1)),
    ((2,), 12, 4, (4, 3, 1, 2)),
    ((2, 3), 8, 2, (1, 1, 1, 1, 1)),
    ((), 10, 5, (7,)),
    ((3,), 6, 1, (2, 5, 1)),
    ((), 16, 4, (3, 6, 2, 1, 4)),
])
def test_prefill_then_chunks_equals_mha_forward(batch, d, n_heads, sizes):
    rng = np.random.default_rng(d * 10 + n_heads + len(sizes))
    x = rng.normal(size=(*batch, sum(sizes), d))
    W = [rng.normal(scale=d ** -0.5, size=(d, d)) for _ in range(4)]
    check(x, W, n_heads, sizes)


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(1, 5), min_size=1, max_size=6),
       heads=st.sampled_from([1, 2, 3, 6]), seed=st.integers(0, 2**16))
def test_any_chunking_equals_mha_forward(sizes, heads, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(scale=2.0, size=(2, sum(sizes), 12))
    W = [rng.normal(scale=12 ** -0.5, size=(12, 12)) for _ in range(4)]
    check(x, W, heads, sizes)
