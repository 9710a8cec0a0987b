"""Hidden cases for lesson 02 (scaled dot-product attention)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("The value size dv may differ from d.",
            cases=("value size differs from key size", "2-D, Tq != Tk, d != dv", "example 3"),
            broken_by=("scale-by-value-size",)),
    promise("The leading batch dimensions ... (zero or more of them) are the same for q, k and v.",
            cases=("example 4", "one batch dimension", "two batch dimensions"),
            broken_by=("transpose-all-axes", "transpose-fixed-axes", "d-from-axis-1")),
    promise('True means "may attend".', cases=("example 2", "a 2-D mask"),
            broken_by=("inverted-mask",)),
    promise("for example one (Tq, Tk) mask for a whole batch, or a (B, 1, Tk) padding mask",
            cases=("one mask shared by a batch", "a padding mask"),
            broken_by=("boolean-index-mask",)),
    promise("Scale the scores by 1 / sqrt(d), where d = q.shape[-1].",
            cases=("example 1", "2-D, Tq != Tk, d != dv", "one batch dimension"),
            broken_by=("no-scale", "scale-by-d", "multiply-by-sqrt-d", "power-precedence",
                       "scale-by-key-count")),
    promise("Masked scores are set to -inf before the softmax.",
            cases=("masked keys get no weight", "a masked key far above the rest",
                   "allowed scores far below zero"),
            broken_by=("mask-after-softmax", "masked-score-zero", "finite-mask-fill",
                       "renormalise-after-softmax", "additive-inf-mask-nan")),
    promise("Works with any number of batch dimensions, and with scores in the thousands.",
            cases=("huge scores", "huge scores with a mask", "two batch dimensions"),
            broken_by=("unstable-softmax",)),
    promise("Returns: an array of shape (..., Tq, dv).",
            cases=("2-D, Tq != Tk, d != dv", "a single query", "a single key"),
            broken_by=("softmax-over-queries",)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("swap", ".T", "axes"), ("sqrt", "mask", "-inf", "last axis", "value size"), ("np.swapaxes", "np.where", "softmax(scores, axis=-1)")),
            functions=("attention",), forbidden={
    "scaled_dot_product_attention": "this lesson asks you to build attention yourself, in numpy",
    "MultiheadAttention": "this lesson asks you to build attention yourself, in numpy",
})


def random_mask(rng, shape, p_keep=0.5):
    """A boolean mask of `shape` whose every row (last axis) has at least one True entry."""
    mask = rng.random(shape) < p_keep
    first = rng.integers(0, shape[-1], size=shape[:-1])
    np.put_along_axis(mask, first[..., None], True, axis=-1)
    return mask


def masked_keys_get_no_weight(got, expected, calls):
    """With v = identity the output is the weight matrix itself."""
    weights, mask = np.asarray(got[0], dtype=float), calls[0].args[3]
    if weights.shape != expected[0].shape:
        return f"expected shape {expected[0].shape}, got shape {weights.shape}"
    sums = weights.sum(axis=-1)
    if not np.allclose(sums, 1.0, rtol=0, atol=1e-9):
        return ("with v = the identity matrix the output is the weight matrix, whose rows should "
                f"each sum to 1; yours sum to values from {sums.min():.6g} to {sums.max():.6g}")
    leaked = np.abs(weights[~np.broadcast_to(mask, weights.shape)])
    if leaked.size and leaked.max() > 1e-12:
        return (f"a masked-out key still gets weight (up to {leaked.max():.6g}); masked keys must "
                "get weight exactly 0")
    if not np.allclose(weights, expected[0], rtol=1e-6, atol=1e-9):
        return "the weights (the output for v = identity) differ from the expected ones"
    return None


def same_outputs(why):
    def check(got, expected, calls):
        a, b = (np.asarray(g, dtype=float) for g in got)
        if a.shape != expected[0].shape or b.shape != expected[1].shape:
            return f"expected shape {expected[0].shape}, got shapes {a.shape} and {b.shape}"
        if not np.allclose(a, b, rtol=1e-6, atol=1e-9):
            return f"the two calls should give the same output ({why}); yours differ"
        if not np.allclose(a, expected[0], rtol=1e-6, atol=1e-9):
            return "the two calls agree with each other, but not with the expected output"
        return None
    return check


def cases(rng):
    n = rng.normal
    yield case("2-D, Tq != Tk, d != dv",
               call("attention", n(size=(4, 6)), n(size=(7, 6)), n(size=(7, 3))),
               probe="q (4, 6), k (7, 6), v (7, 3), no mask")
    yield case("one batch dimension",
               call("attention", n(size=(3, 4, 5)), n(size=(3, 6, 5)), n(size=(3, 6, 2))),
               probe="q (3, 4, 5), k (3, 6, 5), v (3, 6, 2): a batch of 3 (three axes)", hint=1)
    yield case("two batch dimensions",
               call("attention", n(size=(2, 3, 5, 4)), n(size=(2, 3, 6, 4)), n(size=(2, 3, 6, 7))),
               probe="q (2, 3, 5, 4), k (2, 3, 6, 4), v (2, 3, 6, 7): two batch axes", hint=1)
    yield case("value size differs from key size",
               call("attention", n(size=(3, 2)), n(size=(5, 2)), n(size=(5, 9))),
               probe="d = 2 but dv = 9: the scale uses the key size d", hint=2)
    yield case("a 2-D mask",
               call("attention", n(size=(5, 3)), n(size=(6, 3)), n(size=(6, 4)),
                    random_mask(rng, (5, 6))),
               probe="a (5, 6) mask with some entries False", hint=2)
    yield case("one mask shared by a batch",
               call("attention", n(size=(2, 4, 3)), n(size=(2, 7, 3)), n(size=(2, 7, 5)),
                    random_mask(rng, (4, 7))),
               probe="q (2, 4, 3) with a (4, 7) mask that broadcasts over the batch", hint=2)
    pad = np.ones((3, 1, 6), dtype=bool)
    pad[0, 0, 4:] = pad[1, 0, 2:] = False
    yield case("a padding mask",
               call("attention", n(size=(3, 5, 4)), n(size=(3, 6, 4)), n(size=(3, 6, 2)), pad),
               probe="a (3, 1, 6) mask hiding the last keys of some batch items, broadcast over queries",
               hint=2)
    few = np.zeros((4, 8), dtype=bool)
    few[0, 3] = few[1, [0, 7]] = few[2, 5] = few[3, [1, 2, 6]] = True
    yield case("mostly masked rows",
               call("attention", n(size=(4, 5)), n(size=(8, 5)), n(size=(8, 3)), few),
               probe="rows with only one to three keys allowed", hint=2)
    yield case("a mask with full rows",
               call("attention", n(size=(2, 3, 4)), n(size=(2, 5, 4)), n(size=(2, 5, 6)),
                    np.array([[True] * 5, [True, False, True, False, False], [True] * 5])),
               probe="a (3, 5) mask where some rows allow every key", hint=2)
    yield case("huge scores",
               call("attention", n(scale=30.0, size=(2, 3, 4)), n(scale=30.0, size=(2, 5, 4)),
                    n(size=(2, 5, 6))),
               probe="scores in the hundreds and thousands, floating-point warnings raised as errors",
               float_errors=True)
    yield case("huge scores with a mask",
               call("attention", n(scale=30.0, size=(6, 4)), n(scale=30.0, size=(9, 4)),
                    n(size=(9, 2)), random_mask(rng, (6, 9), p_keep=0.3)),
               probe="huge scores and a mask, floating-point warnings raised as errors",
               float_errors=True, hint=2)
    yield case("a single key",
               call("attention", n(size=(3, 4, 2)), n(size=(3, 1, 2)), n(size=(3, 1, 5))),
               probe="Tk = 1: every query copies the one value row")
    yield case("a single query",
               call("attention", n(size=(2, 1, 6)), n(size=(2, 5, 6)), n(size=(2, 5, 3))),
               probe="Tq = 1, with a batch of 2")
    mask = random_mask(rng, (6, 7), p_keep=0.4)
    yield case("masked keys get no weight",
               call("attention", n(size=(6, 3)), n(size=(7, 3)), np.eye(7), mask),
               probe="with v = the identity the output is the weight matrix: its rows sum to 1 "
                     "and masked keys get weight 0",
               check=masked_keys_get_no_weight, hint=2)
    q, k, v = n(size=(2, 4, 3)), n(size=(2, 6, 3)), n(size=(2, 6, 5))
    shift = n(scale=2.0, size=(2, 1, 3))
    yield case("shifting every key by the same vector",
               call("attention", q, k, v), call("attention", q, k + shift, v),
               probe="adding one vector to every key adds a constant to each query's scores, "
                     "which the softmax ignores: the output must not change",
               check=same_outputs("a shift shared by all keys only moves each row of scores "
                                  "by a constant"))
    q, k, v = n(size=(5, 4)), n(size=(3, 4)), n(size=(3, 2))
    yield case("an all-True mask is no mask",
               call("attention", q, k, v), call("attention", q, k, v, np.ones((5, 3), dtype=bool)),
               probe="a mask that allows everything must give the same output as no mask",
               check=same_outputs("a mask of all True hides nothing"))

    # Every query's masked key 0 outscores its allowed keys by more than exp can span (~745):
    # masking after the softmax leaves the allowed keys with weights of exactly 0, whatever the draw.
    q = rng.uniform(-1, 1, size=(3, 5, 4))
    q[..., 0] = 1.0
    k = rng.uniform(-1, 1, size=(3, 7, 4))
    k[:, 0, 0] = 5000.0
    mask = rng.random((5, 7)) < 0.5
    mask[:, 0] = False
    mask[np.arange(5), rng.integers(1, 7, size=5)] = True
    yield case("a masked key far above the rest",
               call("attention", q, k, rng.normal(size=(3, 7, 2)), mask),
               probe="each query's masked key scores thousands above its allowed keys: only "
                     "masking the scores before the softmax gives the allowed keys any weight",
               hint=2)
    # Every allowed score is far below -10000 (and far below the masked ones): a large negative
    # stand-in for -inf, such as -1e4, then outscores every allowed key, whatever the draw.
    q = rng.uniform(-1, 1, size=(4, 3))
    q[:, 0] = 1.0
    k = rng.uniform(-1, 1, size=(6, 3))
    k[:, 0] = -40000.0
    mask = rng.random((4, 6)) < 0.5
    mask[np.arange(4), rng.integers(0, 6, size=4)] = True
    mask[np.arange(4), rng.integers(0, 6, size=4)] = False
    mask[mask.sum(axis=1) == 0, 0] = True
    yield case("allowed scores far below zero", call("attention", q, k, rng.normal(size=(6, 5)), mask),
               probe="every score near -20000: a masked score must be -inf, not a large negative "
                     "number that can still beat the allowed ones", hint=2)
