"""Hidden cases for lesson 09 (attention with PyTorch)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("mask: None, or a nested list of booleans broadcastable to [..., Tq, Tk]. True means "
            "the query may attend to the key.",
            cases=("heads and a shared mask", "a mask per batch element", "key padding",
                   "a causal mask as booleans", "hidden keys make no difference",
                   "a masked key far above the rest"),
            broken_by=("float-mask", "inverted-mask", "mask-ignored", "masked-fill-true",
                       "causal-instead-of-mask", "renormalise-after-softmax")),
    promise("softmax(Q K^T / sqrt(d)) with the hidden scores removed, times V",
            cases=("example 1", "no mask, batched", "wide heads", "a single query"),
            broken_by=("scaled-twice", "scale-by-value-size", "scale-argument-sqrt-d",
                       "transpose-all-axes", "softmax-implicit-dim")),
    promise("Compute in float64.", cases=("keys with a large shared offset", "no mask, batched"),
            broken_by=("no-dtype", "float32", "double-after-float32")),
    promise("With mask=None, every query attends to every key.",
            cases=("no mask, one sequence", "no mask, batched"),
            broken_by=("causal-when-no-mask", "causal-flag", "none-mask-converted")),
    promise("Return plain nested lists, not a tensor.", cases=("example 1",),
            broken_by=("returns-tensor",)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("conversions", "scaled_dot_product_attention", "lists"), ("boolean", "mask", "None"), ("float", ".tolist()", "torch.bool")),
            functions=("solve",))


def qkv(rng, batch, tq, tk, d, dv, scale=1.0):
    """Random Q, K, V as nested lists of floats."""
    q = rng.normal(scale=scale, size=(*batch, tq, d))
    k = rng.normal(scale=scale, size=(*batch, tk, d))
    v = rng.normal(size=(*batch, tk, dv))
    return q.tolist(), k.tolist(), v.tolist()


def random_mask(rng, shape, keep=0.6):
    """A boolean mask (nested lists) with some False entries and at least one True per query row."""
    m = rng.random(shape) < keep
    rows = m.reshape(-1, shape[-1])
    for r, row in enumerate(rows):
        if not row.any():
            rows[r, rng.integers(shape[-1])] = True
    return rows.reshape(shape).tolist()


def hidden_values_ignored(got, expected, calls):
    """Changing the values of keys that no query may see leaves the output unchanged."""
    a, b = np.asarray(got[0], dtype=float), np.asarray(got[1], dtype=float)
    if a.shape != b.shape:
        return f"your two outputs have different shapes, {a.shape} and {b.shape}"
    if not np.allclose(a, b, rtol=1e-6, atol=1e-9):
        worst = np.max(np.abs(a - b))
        return (f"changing the values of keys the mask hides from every query changed your output "
                f"(by up to {worst:.6g}): masked keys must get weight exactly 0")
    if not np.allclose(a, np.asarray(expected[0]), rtol=1e-6, atol=1e-9):
        return "hidden keys make no difference to your output, but its values are not attention's"
    return None


def deterministic(got, expected, calls):
    """Two calls with the same inputs give the same output, and it is attention's."""
    a, b = np.asarray(got[0], dtype=float), np.asarray(got[1], dtype=float)
    if a.shape != b.shape:
        return f"your two outputs have different shapes, {a.shape} and {b.shape}"
    if not np.allclose(a, b, rtol=0, atol=0, equal_nan=True):
        worst = np.nanmax(np.abs(a - b))
        return (f"two calls with the same inputs gave different outputs (by up to {worst:.6g}): "
                "something random is switched on, such as dropout (`dropout_p` must stay 0)")
    if not np.allclose(a, np.asarray(expected[0]), rtol=1e-6, atol=1e-9):
        return "the two calls agree, but the output is not attention's"
    return None


def cases(rng):
    q, k, v = qkv(rng, (2, 3), 4, 6, 5, 7)
    yield case("heads and a shared mask", call("solve", q, k, v, random_mask(rng, (4, 6))),
               probe="Q (2, 3, 4, 5), K (2, 3, 6, 5), V (2, 3, 6, 7) and a (4, 6) mask shared by "
                     "every batch element", hint=2)
    q, k, v = qkv(rng, (3,), 5, 7, 4, 2)
    yield case("no mask, batched", call("solve", q, k, v),
               probe="Q (3, 5, 4), K (3, 7, 4), V (3, 7, 2), mask=None", hint=2)
    q, k, v = qkv(rng, (), 4, 5, 6, 3)
    yield case("no mask, one sequence", call("solve", q, k, v),
               probe="Q (4, 6), K (5, 6), V (5, 3), mask=None: Tq != Tk and d != dv", hint=2)
    q, k, v = qkv(rng, (2,), 3, 5, 4, 6)
    yield case("a mask per batch element", call("solve", q, k, v, random_mask(rng, (2, 3, 5))),
               probe="Q (2, 3, 4), K (2, 5, 4), V (2, 5, 6) and a (2, 3, 5) mask", hint=2)
    q, k, v = qkv(rng, (2, 3), 4, 6, 5, 2)
    yield case("key padding", call("solve", q, k, v, random_mask(rng, (2, 1, 1, 6), keep=0.5)),
               probe="a (2, 1, 1, 6) mask that hides some keys from every query of a batch element",
               hint=2)
    q, k, v = qkv(rng, (), 6, 6, 4, 3)
    yield case("a causal mask as booleans", call("solve", q, k, v, np.tril(np.ones((6, 6), bool)).tolist()),
               probe="6 queries over 6 keys with the lower-triangular (causal) mask", hint=2)
    q, k, v = qkv(rng, (3,), 4, 6, 5, 2)
    yield case("one allowed key per query",
               call("solve", q, k, v, np.eye(6, dtype=bool)[rng.integers(6, size=(3, 4))].tolist()),
               probe="each query may attend to exactly one key (its output is that key's value)")
    q, k, v = qkv(rng, (2,), 3, 1, 4, 5)
    yield case("a single key", call("solve", q, k, v),
               probe="Tk = 1: every query gets the one value row")
    q, k, v = qkv(rng, (2,), 1, 5, 3, 4)
    yield case("a single query", call("solve", q, k, v, random_mask(rng, (2, 1, 5))),
               probe="Tq = 1 with a mask")
    q, k, v = qkv(rng, (2,), 5, 8, 16, 3)
    yield case("wide heads", call("solve", q, k, v, random_mask(rng, (5, 8), keep=0.8)),
               probe="d = 16, where the scale 1/sqrt(d) = 1/4 matters")
    q, k, v = qkv(rng, (3,), 4, 6, 5, 3, scale=3.0)
    yield case("large scores", call("solve", q, k, v, random_mask(rng, (3, 4, 6), keep=0.7)),
               probe="queries and keys around +-3: large scores and sharp weights")
    q, k, v = qkv(rng, (2,), 4, 7, 5, 3)
    k = (50.0 + np.array(k)).tolist()
    yield case("keys with a large shared offset", call("solve", q, k, v, random_mask(rng, (4, 7), keep=0.8)),
               probe="keys near 50: every score carries a large common part, so float32 rounding "
                     "of the scores shows in the weights", hint=3)
    q, k, v = qkv(rng, (), 3, 4, 2, 3, scale=1.5)
    yield case("every key allowed", call("solve", q, k, v, np.ones((3, 4), bool).tolist()),
               probe="an all-True mask, which must give the same result as no mask")

    q, k, v = qkv(rng, (2,), 4, 6, 3, 5)
    mask = np.array(random_mask(rng, (2, 4, 6)))
    mask[:, :, [1, 4]] = False
    mask[:, :, 0] = True
    v2 = np.array(v)
    v2[:, [1, 4]] = rng.normal(scale=10.0, size=(2, 2, 5))
    yield case("hidden keys make no difference",
               call("solve", q, k, v, mask.tolist()), call("solve", q, k, v2.tolist(), mask.tolist()),
               probe="changing the values of keys 1 and 4, which the mask hides from every query, "
                     "leaves the output unchanged", check=hidden_values_ignored, hint=2)

    # Every query's masked key 0 outscores its allowed keys by more than exp can span (~745):
    # masking after the softmax leaves the allowed keys with weights of exactly 0, whatever the draw.
    q = rng.uniform(-1, 1, size=(2, 4, 3))
    q[..., 0] = 1.0
    k = rng.uniform(-1, 1, size=(2, 6, 3))
    k[:, 0, 0] = 5000.0
    mask = rng.random((4, 6)) < 0.5
    mask[:, 0] = False
    mask[np.arange(4), rng.integers(1, 6, size=4)] = True
    yield case("a masked key far above the rest",
               call("solve", q.tolist(), k.tolist(), rng.normal(size=(2, 6, 5)).tolist(),
                    mask.tolist()),
               probe="each query's masked key scores thousands above its allowed keys: only "
                     "masking the scores before the softmax gives the allowed keys any weight",
               hint=2)
    q, k, v = qkv(rng, (2,), 4, 5, 3, 2)
    mask = random_mask(rng, (4, 5))
    yield case("the same inputs give the same output",
               call("solve", q, k, v, mask), call("solve", q, k, v, mask),
               probe="two calls with the same inputs must give the same output: nothing random, "
                     "such as dropout, may be switched on", check=deterministic)
