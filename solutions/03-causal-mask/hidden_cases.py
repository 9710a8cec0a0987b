"""Hidden cases for lesson 03 (the causal mask, and causal attention)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("t_k defaults to t_q", cases=("example 1", "square mask, t_k left out"),
            broken_by=(edit("        t_k = t_q", "        t_k = t_q + 1"),)),
    promise("whose entry [i, j] is True exactly when j <= t_k - t_q + i",
            cases=("example 2", "a query block at the end", "one query, many keys", "T = 1 mask"),
            broken_by=("top-left-alignment", "offset-wrong-sign", "strict-lower-triangle",
                       "square-of-t-k")),
    promise("The mask is boolean (dtype=bool), True meaning \"may attend\".",
            cases=("example 1", "square mask, t_k left out"),
            broken_by=("numeric-mask", "mask-marks-future", "float-tril-no-offset")),
    promise("the keys and values of all Tk >= Tq positions",
            cases=("queries at the end of longer keys", "one new query with a cache",
                   "the last queries alone match the full sequence"),
            broken_by=("square-mask-from-queries", "square-mask-from-keys",
                       "square-mask-first-rows")),
    promise("the attention output where each query sees only the keys at its own position and "
            "before", cases=("self-attention, 2-D", "prefix invariance",
                             "a future key far above the rest"),
            broken_by=("upper-triangle", "one-key-ahead", "mask-after-softmax",
                       "renormalise-after-softmax", "masked-score-zero")),
    promise("Returns: (..., Tq, dv)", cases=("two batch dimensions", "T = 1"),
            broken_by=("lengths-from-axis-0",)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("first row", "positions", "see", "t_q = t_k"), ("t_k - t_q", "<=", "boolean", "position", "itself"), ("t_k is None", "t_k = t_q", "k.shape[-2]", "-inf", "before the softmax")),
            functions=("causal_mask", "causal_attention"), forbidden={
    "scaled_dot_product_attention": "this lesson asks you to build causal attention yourself, in numpy",
    "MultiheadAttention": "this lesson asks you to build causal attention yourself, in numpy",
})


def rows_match(which, why):
    """A check: the second call's output equals rows `which` of the first call's output."""
    def check(got, expected, calls):
        full, part = (np.asarray(g, dtype=float) for g in got)
        if full.shape != expected[0].shape or part.shape != expected[1].shape:
            return (f"expected shapes {expected[0].shape} and {expected[1].shape}, "
                    f"got {full.shape} and {part.shape}")
        rows = full[..., which, :]
        with np.errstate(invalid="ignore"):
            if not np.allclose(part, rows, rtol=1e-6, atol=1e-9):
                return why
            if not np.allclose(full, expected[0], rtol=1e-6, atol=1e-9):
                return ("the two calls agree with each other, but the outputs are not the "
                        "expected ones")
        return None
    return check


def cases(rng):
    n = rng.normal
    yield case("square mask, t_k left out", call("causal_mask", 7),
               probe="causal_mask(7): t_k is None, so t_k = t_q", hint=3)
    yield case("square mask, t_k given", call("causal_mask", 5, 5),
               probe="causal_mask(5, 5): a square mask, t_q = t_k", hint=1)
    yield case("a query block at the end", call("causal_mask", 3, 8),
               probe="causal_mask(3, 8): three queries at positions 5, 6 and 7 of eight keys", hint=2)
    yield case("one query, many keys", call("causal_mask", 1, 6),
               probe="causal_mask(1, 6): the newest position sees every key", hint=2)
    yield case("T = 1 mask", call("causal_mask", 1),
               probe="causal_mask(1)")
    yield case("self-attention, 2-D",
               call("causal_attention", n(size=(6, 4)), n(size=(6, 4)), n(size=(6, 3))),
               probe="q, k (6, 4) and v (6, 3), no batch")
    yield case("two batch dimensions",
               call("causal_attention", n(size=(2, 3, 5, 4)), n(size=(2, 3, 5, 4)),
                    n(size=(2, 3, 5, 6))),
               probe="q, k (2, 3, 5, 4) and v (2, 3, 5, 6)")
    yield case("queries at the end of longer keys",
               call("causal_attention", n(size=(2, 3, 4)), n(size=(2, 7, 4)), n(size=(2, 7, 5))),
               probe="Tq = 3 queries that are the last positions of Tk = 7 keys, batch of 2", hint=2)
    yield case("one new query with a cache",
               call("causal_attention", n(size=(3, 1, 4)), n(size=(3, 6, 4)), n(size=(3, 6, 2))),
               probe="Tq = 1, Tk = 6: a decoding step that sees the whole cache", hint=1)
    yield case("T = 1",
               call("causal_attention", n(size=(2, 1, 3)), n(size=(2, 1, 3)), n(size=(2, 1, 5))),
               probe="a sequence of length 1: the one query sees only itself", hint=2)
    yield case("huge scores",
               call("causal_attention", n(scale=30.0, size=(2, 5, 3)), n(scale=30.0, size=(2, 5, 3)),
                    n(size=(2, 5, 4))),
               probe="scores in the hundreds and thousands, floating-point warnings raised as errors",
               float_errors=True)
    q, k, v = n(size=(2, 7, 4)), n(size=(2, 7, 4)), n(size=(2, 7, 3))
    yield case("prefix invariance",
               call("causal_attention", q, k, v),
               call("causal_attention", q[:, :4], k[:, :4], v[:, :4]),
               probe="the first 4 positions of a length-7 sequence, run alone, give the first 4 "
                     "rows of the full output (no position looks ahead)",
               check=rows_match(slice(0, 4), "running the first 4 positions alone should give the "
                                "first 4 rows of the full output; yours differ, so some query "
                                "sees a later key"), hint=1)
    q, k, v = n(size=(3, 6, 5)), n(size=(3, 6, 5)), n(size=(3, 6, 2))
    yield case("the last queries alone match the full sequence",
               call("causal_attention", q, k, v),
               call("causal_attention", q[:, 4:], k, v),
               probe="the last 2 queries against all 6 keys give the last 2 rows of the full output: the queries keep their positions",
               check=rows_match(slice(4, 6), "the last 2 queries run against all 6 keys should give "
                                "the last 2 rows of the full output; yours differ, so the mask does "
                                "not line the queries up with the end of the keys"), hint=2)

    # The last key outscores every earlier key by more than exp can span (~745) for every query
    # before it: a causal mask applied after the softmax leaves those queries with weights of 0.
    q = rng.uniform(-1, 1, size=(2, 6, 4))
    q[..., 0] = 1.0
    k = rng.uniform(-1, 1, size=(2, 6, 4))
    k[:, -1, 0] = 5000.0
    yield case("a future key far above the rest",
               call("causal_attention", q, k, n(size=(2, 6, 3))),
               probe="the last key scores thousands above the others: only masking the scores "
                     "before the softmax keeps it from swamping the queries that may not see it",
               hint=3)
