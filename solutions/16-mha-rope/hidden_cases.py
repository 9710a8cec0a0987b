"""Hidden cases for lesson 16 (causal multi-head attention with RoPE)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("every head's queries and keys (not its values) are rotated by rope at positions, "
            "followed by Wo",
            cases=("one sequence, default positions", "example 1", "a single token"),
            broken_by=("rope-on-values", "rope-on-queries-only", "rope-on-input", "rope-on-output",
                       "no-output-projection", "keys-from-wq")),
    promise("positions: an integer array of shape (T,), the position of each token, or None for 0, "
            "1, ..., T-1.",
            cases=("positions with gaps", "a batch from position 10",
                   "one sequence, default positions", "two batch dimensions", "head size 2"),
            broken_by=("positions-ignored", "positions-truth-value",
                       "default-positions-from-first-axis", "positions-none-passed-on")),
    promise("theta: the RoPE frequency base, passed on to rope.",
            cases=("another theta", "another theta, later positions"),
            broken_by=("theta-not-passed",)),
    promise("RoPE on the queries and keys of each head, after splitting: rope receives arrays of "
            "shape (..., H, T, D/H).", cases=("example 1", "head size 2"),
            broken_by=("rope-before-split",)),
    promise("Each head's scores are divided by sqrt(D / H), and query i attends to keys 0..i only, "
            "the future hidden before the softmax.",
            cases=("a future key with a far larger score", "sharp attention", "example 1"),
            broken_by=("scale-by-model-width", "mask-after-softmax", "no-causal-mask",
                       "scaled-twice")),
)

SPEC = Spec(promises=PROMISES, 
    hint_topics=(("mha_forward", "split_heads", "causal_attention", "shape", "head axis"), ("rope(q", "rope(k", "not `v`", "theta", "positions", "np.arange(T)", "after splitting", "before attention"), ("positions is None", "np.arange(x.shape[-2])", "merge_heads")),
    functions=("mha_rope_forward",),
    no_loops=True,
    forbidden={
        "scaled_dot_product_attention": "this lesson builds attention from its parts in numpy",
        "MultiheadAttention": "this lesson builds multi-head attention from its parts in numpy",
    },
)


def weights(rng, d, scale=None):
    """Wq, Wk, Wv, Wo: random (d, d) matrices, none of them symmetric."""
    scale = scale or 1.0 / np.sqrt(d)
    return tuple(rng.normal(scale=scale, size=(d, d)) for _ in range(4))


def mha(rng, shape, n_heads, x_scale=1.0, w_scale=None, **options):
    x = rng.normal(scale=x_scale, size=shape)
    return call("mha_rope_forward", x, *weights(rng, shape[-1], w_scale), n_heads, **options)


def shift_invariant(got, expected, calls):
    """The output at positions p equals the output at positions p + c."""
    for g, e in zip(got, expected):
        if np.shape(g) != np.shape(e):
            return f"expected shape {np.shape(e)}, got shape {np.shape(g)}"
    a, b = np.asarray(got[0], dtype=np.float64), np.asarray(got[1], dtype=np.float64)
    shift = int(calls[1].kwargs["positions"][0])
    if not np.allclose(a, b, rtol=1e-6, atol=1e-9):
        worst = np.max(np.abs(a - b))
        return (f"moving every token {shift} positions further along changed the output (by up to "
                f"{worst:.6g}); with RoPE on the queries and keys only, the scores depend on the "
                "distances between tokens, which did not change, so the output must not either")
    if not np.allclose(a, expected[0], rtol=1e-6, atol=1e-9):
        return ("the output does not change when every position shifts, but its values are not "
                "causal multi-head attention with RoPE on the queries and keys")
    return None


def future_dominates(rng, t=7, d=12, n_heads=2):
    """Inputs where every query's score for the next key beats all the keys it may see by > 1000.

    Every token is a multiple (1 + t) of one unit vector u, plus a little noise. In each head, the
    query and key weights map u to s on the slowest-turning RoPE pair only (column hd/2 - 1), which
    turns by less than 0.02 radian over these positions, so score(t, j) is close to
    s^2 (1 + t)(1 + j) / sqrt(hd): it grows with j, and the step from key t to key t + 1 is at least
    s^2 / sqrt(hd) > 1400. A softmax over all keys, masked afterwards, underflows to 0 / 0.
    """
    hd = d // n_heads
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    x = (1.0 + np.arange(t))[:, None] * u + 0.01 * rng.normal(size=(t, d))
    s = 60.0 * rng.uniform(1.0, 1.2)
    Wqk = np.zeros((d, d))
    Wqk[:, hd // 2 - 1::hd] = s * u[:, None]
    Wv = rng.normal(scale=1 / np.sqrt(d), size=(d, d))
    Wo = rng.normal(scale=1 / np.sqrt(d), size=(d, d))
    return x, Wqk, Wqk.copy(), Wv, Wo


def cases(rng):
    yield case("one sequence, default positions", mha(rng, (5, 12), 2),
               probe="x of shape (5, 12), 2 heads of size 6, positions left out (0 to 4)", hint=2)
    yield case("a batch from position 10", mha(rng, (2, 5, 16), 2, positions=np.arange(10, 15)),
               probe="x of shape (2, 5, 16), 2 heads of size 8, positions 10 to 14", hint=2)
    yield case("two batch dimensions", mha(rng, (2, 3, 7, 12), 3),
               probe="x of shape (2, 3, 7, 12), 3 heads of size 4, default positions", hint=2)
    yield case("positions with gaps",
               mha(rng, (2, 7, 12), 2, positions=np.array([0, 1, 2, 9, 10, 31, 32])),
               probe="x of shape (2, 7, 12), 2 heads, positions 0, 1, 2, 9, 10, 31, 32 (not "
                     "consecutive, so they are not 0 to 6 shifted)", hint=2)
    yield case("another theta", mha(rng, (7, 8), 2, theta=50.0),
               probe="x of shape (7, 8), 2 heads of size 4, theta = 50", hint=2)
    yield case("another theta, later positions",
               mha(rng, (2, 4, 12), 2, positions=np.array([7, 8, 12, 13]), theta=500.0),
               probe="x of shape (2, 4, 12), 2 heads, positions 7, 8, 12, 13 and theta = 500",
               hint=2)
    yield case("head size 2", mha(rng, (3, 5, 8), 4),
               probe="x of shape (3, 5, 8): 4 heads of size 2, one RoPE pair per head", hint=1)
    yield case("one head", mha(rng, (5, 10), 1, positions=np.arange(3, 8)),
               probe="x of shape (5, 10), a single head of size 10, positions 3 to 7")
    yield case("sharp attention", mha(rng, (6, 12), 3, x_scale=2.0, w_scale=0.8),
               probe="larger inputs and weights, so each softmax is far from uniform")
    yield case("a single token", mha(rng, (3, 1, 8), 2, positions=np.array([50])),
               probe="x of shape (3, 1, 8) at position 50: the token sees only itself")

    x = rng.normal(size=(2, 7, 12))
    w = weights(rng, 12)
    shift = int(rng.integers(100, 900))
    yield case("shifting every position",
               call("mha_rope_forward", x, *w, 3),
               call("mha_rope_forward", x, *w, 3, positions=np.arange(7) + shift),
               probe=f"the same input at positions 0 to 6 and at positions {shift} to {shift + 6}: "
                     "the outputs must be equal", check=shift_invariant, hint=2)

    yield case("a future key with a far larger score",
               call("mha_rope_forward", *future_dominates(rng), 2),
               probe="x of shape (7, 12), 2 heads: every query's score for the next key is over "
                     "1000 above its scores for the keys it may see: causal_attention masks it "
                     "before the softmax", hint=1)
