"""Hidden cases for lesson 17 (grouped-query attention)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("query head h attends with key/value head h // (H / n_kv_heads)",
            cases=("six query heads sharing two", "six query heads sharing three",
                   "eight query heads sharing four", "one key/value head (multi-query)",
                   "a single token"),
            broken_by=("group-index-by-kv-count", "repeat-by-kv-count", "group-size-inverted",
                       "repeat-on-axis-1", "repeat-without-axis", "repeat-on-axis-0",
                       "repeat-columns-before-split", "repeat-on-time-axis",
                       "kv-split-into-query-heads", "values-not-repeated")),
    promise("Consecutive groups: query heads 0 .. g-1 share key/value head 0, the next g share head "
            "1, and so on.", cases=("six query heads sharing two", "eight query heads sharing two"),
            broken_by=("tile-kv-heads",)),
    promise("With n_kv_heads = n_heads it equals lesson 08's mha_forward.",
            cases=("as many key/value heads as query heads",
                   "grouped equals multi-head with copied weights"),
            broken_by=("group-index-by-kv-count", "scale-by-kv-width")),
    promise("Each head's scores are divided by sqrt(hd), and query i attends to keys 0..i only, the "
            "future hidden before the softmax.",
            cases=("example 1", "a future key with a far larger score", "sharp attention"),
            broken_by=("scale-by-kv-width", "scale-by-model-width", "no-causal-mask",
                       "mask-after-softmax")),
    promise("heads merged and multiplied by Wo", cases=("a single token", "example 1"),
            broken_by=("no-output-projection", "values-from-wk")),
)

SPEC = Spec(promises=PROMISES, 
    hint_topics=(("shapes", "n_kv_heads", "key/value"), ("np.repeat", "in a row", "key/value head", "np.tile", "axis=-3", "head axis", "n_heads // n_kv_heads"), ("split_heads(x @ Wk, n_kv_heads)", "causal_attention", "merge_heads")),
    functions=("gqa_forward",),
    no_loops=True,
    forbidden={
        "scaled_dot_product_attention": "this lesson builds grouped-query attention from its parts "
                                        "in numpy",
        "MultiheadAttention": "this lesson builds grouped-query attention from its parts in numpy",
        "repeat_kv": "this lesson asks you to share the key/value heads yourself",
    },
)


def weights(rng, d, n_heads, n_kv_heads, scale=None):
    """Wq, Wo of shape (D, D) and Wk, Wv of shape (D, n_kv_heads * D / n_heads), all random."""
    scale = scale or 1.0 / np.sqrt(d)
    kv = n_kv_heads * (d // n_heads)
    return (rng.normal(scale=scale, size=(d, d)), rng.normal(scale=scale, size=(d, kv)),
            rng.normal(scale=scale, size=(d, kv)), rng.normal(scale=scale, size=(d, d)))


def gqa(rng, shape, n_heads, n_kv_heads, x_scale=1.0, w_scale=None):
    x = rng.normal(scale=x_scale, size=shape)
    return call("gqa_forward", x, *weights(rng, shape[-1], n_heads, n_kv_heads, w_scale),
                n_heads, n_kv_heads)


def copied_heads(W, n_heads, n_kv_heads):
    """(D, n_kv * hd) -> (D, H * hd): each key/value head's columns copied to its whole group."""
    d, width = W.shape
    hd = width // n_kv_heads
    blocks = W.reshape(d, n_kv_heads, hd)
    return np.repeat(blocks, n_heads // n_kv_heads, axis=1).reshape(d, n_heads * hd)


def same_as_mha(got, expected, calls):
    """GQA equals multi-head attention whose key/value weights copy each shared head to its group."""
    for g, e in zip(got, expected):
        if np.shape(g) != np.shape(e):
            return f"expected shape {np.shape(e)}, got shape {np.shape(g)}"
    grouped, full = np.asarray(got[0], dtype=np.float64), np.asarray(got[1], dtype=np.float64)
    h, kv = calls[0].args[5], calls[0].args[6]
    if not np.allclose(full, expected[1], rtol=1e-6, atol=1e-9):
        return (f"with n_kv_heads = n_heads = {h} your output is not multi-head attention's "
                "(lesson 08): with one key/value head per query head there is nothing to share")
    if not np.allclose(grouped, full, rtol=1e-6, atol=1e-9):
        worst = np.max(np.abs(grouped - full))
        return (f"{h} query heads sharing {kv} key/value heads should equal multi-head attention in "
                f"which key/value head g's weights are copied to the {h // kv} consecutive query "
                f"heads of group g; yours differs from it by up to {worst:.6g}, so some query head "
                "reads another group's keys and values")
    return None


def future_dominates(rng, t=6, d=12, n_heads=4, n_kv_heads=2):
    """Inputs where every query's score for the next key beats all the keys it may see by > 1000.

    Every token is a multiple (1 + t) of one unit vector u, plus a little noise, and in every query
    and key/value head the first column of the projection maps u to s. So in every head
    score(t, j) = s^2 (1 + t)(1 + j) / sqrt(hd) (up to the noise): it grows with j, and the step from
    key t to key t + 1 is at least s^2 / sqrt(hd) > 2000. A softmax over all keys, masked
    afterwards, underflows to 0 / 0.
    """
    hd = d // n_heads
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    x = (1.0 + np.arange(t))[:, None] * u + 0.01 * rng.normal(size=(t, d))
    s = 60.0 * rng.uniform(1.0, 1.2)
    Wq = np.zeros((d, d))
    Wq[:, ::hd] = s * u[:, None]
    Wk = np.zeros((d, n_kv_heads * hd))
    Wk[:, ::hd] = s * u[:, None]
    Wv = rng.normal(scale=1 / np.sqrt(d), size=(d, n_kv_heads * hd))
    Wo = rng.normal(scale=1 / np.sqrt(d), size=(d, d))
    return x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads


def cases(rng):
    yield case("six query heads sharing two", gqa(rng, (5, 12), 6, 2),
               probe="x of shape (5, 12), 6 query heads of size 2 in 2 groups of 3 (one key/value "
                     "head each; Wk, Wv of shape (12, 4))", hint=2)
    yield case("six query heads sharing three", gqa(rng, (2, 7, 18), 6, 3),
               probe="x of shape (2, 7, 18), 6 query heads of size 3 in 3 groups of 2 (one key/value "
                     "head each; Wk, Wv of shape (18, 9))", hint=2)
    yield case("eight query heads sharing two", gqa(rng, (2, 3, 5, 16), 8, 2),
               probe="x of shape (2, 3, 5, 16), 8 query heads of size 2 in 2 groups of 4 (one "
                     "key/value head each)", hint=2)
    yield case("eight query heads sharing four", gqa(rng, (3, 6, 24), 8, 4),
               probe="x of shape (3, 6, 24), 8 query heads of size 3 in 4 groups of 2 (one key/value "
                     "head each)", hint=2)
    yield case("four query heads sharing two", gqa(rng, (7, 8), 4, 2),
               probe="x of shape (7, 8), 4 query heads of size 2 in 2 groups of 2 (one key/value "
                     "head each), no batch axis",
               hint=2)
    yield case("one key/value head (multi-query)", gqa(rng, (2, 6, 12), 4, 1),
               probe="x of shape (2, 6, 12), 4 query heads of size 3 all sharing 1 key/value head",
               hint=1)
    yield case("as many key/value heads as query heads", gqa(rng, (2, 5, 12), 3, 3),
               probe="x of shape (2, 5, 12) with n_kv_heads = n_heads = 3: lesson 08's multi-head "
                     "attention", hint=1)
    yield case("sharp attention", gqa(rng, (6, 12), 6, 2, x_scale=2.0, w_scale=0.8),
               probe="6 query heads in 2 groups, larger inputs and weights, so each softmax is far "
                     "from uniform")
    yield case("a single token", gqa(rng, (3, 1, 12), 4, 2),
               probe="x of shape (3, 1, 12), 4 query heads in 2 groups: the token sees only itself")

    x = rng.normal(size=(2, 6, 18))
    Wq, Wk, Wv, Wo = weights(rng, 18, 6, 3)
    yield case("grouped equals multi-head with copied weights",
               call("gqa_forward", x, Wq, Wk, Wv, Wo, 6, 3),
               call("gqa_forward", x, Wq, copied_heads(Wk, 6, 3), copied_heads(Wv, 6, 3), Wo, 6, 6),
               probe="6 query heads sharing 3 key/value heads, then the same with each key/value "
                     "head's columns of Wk and Wv copied to its group and n_kv_heads = 6: the two "
                     "outputs must be equal", check=same_as_mha, hint=2)

    yield case("a future key with a far larger score", call("gqa_forward", *future_dominates(rng)),
               probe="x of shape (6, 12), 4 query heads in 2 groups: every query's score for the "
                     "next key is over 1000 above its scores for the keys it may see: causal_attention "
                     "masks it before the softmax", hint=3)
