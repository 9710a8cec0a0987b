"""Hidden cases for lesson 08 (causal multi-head attention)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("one row per token, with any number of leading batch dimensions (none, one, or more)",
            cases=("one sequence, three heads", "a batch of sequences", "two batch dimensions"),
            broken_by=("fixed-batch-rank", "mask-size-from-axis-0")),
    promise("used on the right: x @ Wq", cases=("projections on the right",),
            broken_by=("weights-transposed", "wo-transposed")),
    promise("causal multi-head self-attention of x, after the output projection Wo",
            cases=("one sequence, three heads", "the future is hidden",
                   "a future key far above the rest", "a single token"),
            broken_by=("no-output-projection", "no-causal-mask", "mask-upper-triangle",
                       "mask-after-softmax", "renormalise-after-softmax", "heads-never-split",
                       "reshape-without-transpose", "merge-without-transpose", "k-from-wq",
                       "v-from-wk", "queries-keys-swapped")),
    promise("Each head's scores are divided by sqrt(D / H), and query i attends to keys 0..i only.",
            cases=("example 1", "many heads, longer sequence", "prefix invariance"),
            broken_by=("scale-by-model-width", "no-scale", "scale-by-head-size",
                       "head-size-as-n-heads")),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("split", "project", "order"), ("projected", "head axis", "batch axis", "causal_attention", "scale", "D/H"), ("Wo", "x @ Wq")),
            
    functions=("mha_forward",),
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


def mha(rng, shape, n_heads, x_scale=1.0, w_scale=None):
    x = rng.normal(scale=x_scale, size=shape)
    return call("mha_forward", x, *weights(rng, shape[-1], w_scale), n_heads)


def shapes_differ(got, expected):
    """A message when an output's shape is not the reference's, else None."""
    for g, e in zip(got, expected):
        if np.shape(g) != np.shape(e):
            return f"expected shape {np.shape(e)}, got shape {np.shape(g)}"
    return None


def values_match(got, expected):
    """None when both outputs equal the reference's, else a message."""
    for g, e in zip(got, expected):
        if not np.allclose(np.asarray(g), np.asarray(e), rtol=1e-6, atol=1e-9):
            return "the property holds, but the output values are not causal multi-head attention's"
    return None


def prefix_matches(got, expected, calls):
    """The output on the first t tokens equals the first t rows of the output on all tokens."""
    if shapes_differ(got, expected):
        return shapes_differ(got, expected)
    full, prefix = np.asarray(got[0]), np.asarray(got[1])
    t = prefix.shape[-2]
    if not np.allclose(prefix, full[..., :t, :], rtol=1e-6, atol=1e-9):
        worst = np.max(np.abs(prefix - full[..., :t, :]))
        return (f"the output for the first {t} tokens alone differs from the first {t} rows of the "
                f"output for all tokens (by up to {worst:.6g}): earlier tokens are seeing later ones")
    return values_match(got, expected)


def future_ignored(got, expected, calls):
    """Changing only the last token leaves every earlier output row unchanged."""
    if shapes_differ(got, expected):
        return shapes_differ(got, expected)
    a, b = np.asarray(got[0]), np.asarray(got[1])
    if not np.allclose(a[..., :-1, :], b[..., :-1, :], rtol=1e-6, atol=1e-9):
        worst = np.max(np.abs(a[..., :-1, :] - b[..., :-1, :]))
        return (f"changing only the last token changed the outputs of earlier tokens (by up to "
                f"{worst:.6g}): a token must not attend to tokens after it")
    return values_match(got, expected)


def cases(rng):
    yield case("one sequence, three heads", mha(rng, (6, 12), 3),
               probe="x of shape (6, 12) (T=6, D=12) with 3 heads of size 4")
    yield case("a batch of sequences", mha(rng, (2, 5, 12), 4),
               probe="x of shape (2, 5, 12) with 4 heads of size 3")
    yield case("two batch dimensions", mha(rng, (3, 4, 7, 10), 2),
               probe="x of shape (3, 4, 7, 10) with 2 heads of size 5")
    yield case("one head", mha(rng, (5, 6), 1),
               probe="a single head of size D=6 (x of shape (5, 6))")
    yield case("head size 1", mha(rng, (4, 6), 6),
               probe="6 heads of size 1 (x of shape (4, 6)): the scale is 1/sqrt(1)", hint=2)
    yield case("many heads, longer sequence", mha(rng, (11, 20), 4),
               probe="x of shape (11, 20) with 4 heads of size 5 (T > D/H)")
    yield case("more tokens than columns", mha(rng, (2, 9, 6), 2),
               probe="x of shape (2, 9, 6) with 2 heads of size 3 (T > D)")
    yield case("sharp attention", mha(rng, (7, 12), 3, x_scale=3.0, w_scale=0.8),
               probe="larger inputs and weights, so each softmax is far from uniform")
    yield case("a single token", mha(rng, (3, 1, 8), 2),
               probe="x of shape (3, 1, 8): T=1, every token sees only itself")
    yield case("projections on the right", mha(rng, (4, 5, 12), 2),
               probe="x of shape (4, 5, 12) with 2 heads of size 6; Wq, Wk, Wv, Wo are not symmetric",
               hint=3)

    x = rng.normal(size=(2, 9, 12))
    w = weights(rng, 12)
    yield case("prefix invariance",
               call("mha_forward", x, *w, 3), call("mha_forward", x[:, :4], *w, 3),
               probe="the output on the first 4 of 9 tokens equals the first 4 rows of the output "
                     "on all 9", check=prefix_matches)

    x = rng.normal(size=(8, 10))
    x2 = x.copy()
    x2[-1] = rng.normal(scale=3.0, size=10)
    w = weights(rng, 10)
    yield case("the future is hidden",
               call("mha_forward", x, *w, 5), call("mha_forward", x2, *w, 5),
               probe="changing only the last of 8 tokens leaves the first 7 output rows unchanged",
               check=future_ignored)

    # Token 0's features make every query positive in every head; the last token's make its key
    # huge in every head, so for every earlier query a future key outscores the allowed ones by
    # more than exp can span (~745): masking after the softmax leaves them with weights of 0.
    x = rng.uniform(-1, 1, size=(2, 5, 12))
    x[..., 0], x[..., 1], x[:, -1, 1] = 1.0, 0.0, 1.0
    wq = rng.uniform(-0.1, 0.1, size=(12, 12))
    wq[0] = 2.0
    wk = rng.uniform(-0.5, 0.5, size=(12, 12))
    wk[1] = 1000.0
    wv, wo = (rng.normal(scale=12 ** -0.5, size=(12, 12)) for _ in range(2))
    yield case("a future key far above the rest", call("mha_forward", x, wq, wk, wv, wo, 3),
               probe="the last token's key scores thousands above the others in every head: only "
                     "masking the scores before the softmax, as causal_attention does, keeps it from the earlier "
                     "queries",
               hint=2)
