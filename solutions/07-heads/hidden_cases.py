"""Hidden cases for lesson 07 (splitting and merging heads)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("with any number of leading batch axes (none, one, or more)",
            cases=("split a sequence", "split a batch", "split with two batch axes",
                   "merge with two batch axes"),
            broken_by=("split-fixed-rank", "split-swaps-first-axes", "merge-fixed-rank",
                       "merge-fixed-transpose")),
    promise("head h holds columns h*D/H to (h+1)*D/H of every row",
            cases=("heads hold column blocks", "example 1", "split into single columns"),
            broken_by=("split-reshape-only", "interleaved-heads", "split-interleaved",
                       "n-heads-as-head-size", "split-heads-after-time")),
    promise("Returns: an array of shape (..., H, T, D/H)",
            cases=("split into one head", "split one token", "example 2"),
            broken_by=("split-full-transpose", "float-head-size", "split-transpose-4d")),
    promise("Returns: an array of shape (..., T, H*Dh), the inverse of split_heads: "
            "merge_heads(split_heads(x, n_heads)) equals x.",
            cases=("merge undoes split", "split undoes merge", "merge a sequence", "merge one token"),
            broken_by=("merge-reshape-only", "merge-swaps-wrong-axes", "merge-full-transpose",
                       "merge-heads-last", "merge-no-reshape", "merge-concatenate-first-axis")),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("shape",), ("reshape", "swap", "consecutive", "batch axes", "chunk"), ("*lead", "swapaxes", "d // n_heads")),
            functions=("split_heads", "merge_heads"), no_loops=True)


def reference_split(x, n_heads):
    *lead, t, d = x.shape
    return np.moveaxis(x.reshape(*lead, t, n_heads, d // n_heads), -2, -3).copy()


def reference_merge(x):
    *lead, h, t, dh = x.shape
    return np.moveaxis(x, -3, -2).reshape(*lead, t, h * dh)


def heads_hold_column_blocks(got, expected, calls):
    """Head h holds columns h*Dh to (h+1)*Dh of every row, checked one head at a time."""
    x, n_heads = calls[0].args
    out = np.asarray(got[0])
    *lead, t, d = x.shape
    dh = d // n_heads
    want = (*lead, n_heads, t, dh)
    if out.shape != want:
        return f"expected shape {want} (..., H, T, D/H), got shape {out.shape}"
    for h in range(n_heads):
        block = x[..., :, h * dh:(h + 1) * dh]
        if not np.allclose(out[..., h, :, :], block, rtol=1e-6, atol=1e-9):
            return (f"head {h} should hold columns {h * dh} to {(h + 1) * dh - 1} of every row of x "
                    f"(out[..., {h}, t, :] == x[..., t, {h * dh}:{(h + 1) * dh}]); yours does not")
    return None


def round_trip(original):
    """A check that the call's output equals `original`: the array before the reference's split
    (for merge_heads) or before the reference's merge (for split_heads)."""
    def check(got, expected, calls):
        out = np.asarray(got[0])
        if out.shape != original.shape:
            return f"expected shape {original.shape}, the shape before the round trip; got {out.shape}"
        if not np.allclose(out, original, rtol=1e-6, atol=1e-9):
            return ("the round trip does not give back the original array: merge_heads should undo "
                    "split_heads exactly")
        return None
    return check


def cases(rng):
    yield case("split a sequence", call("split_heads", rng.normal(size=(5, 12)), 3),
               probe="a (5, 12) sequence into 3 heads of size 4")
    yield case("split a batch", call("split_heads", rng.normal(size=(2, 7, 15)), 5),
               probe="a (2, 7, 15) batch into 5 heads of size 3 (one batch axis)")
    yield case("split with two batch axes", call("split_heads", rng.normal(size=(2, 3, 5, 28)), 4),
               probe="a (2, 3, 5, 28) array into 4 heads of size 7 (two batch axes)", hint=2)
    yield case("split into one head", call("split_heads", rng.normal(size=(3, 6, 5)), 1),
               probe="one head: the output is x with a head axis of size 1 before time")
    yield case("split into single columns", call("split_heads", rng.normal(size=(4, 6)), 6),
               probe="as many heads as features: head h is column h")
    yield case("split one token", call("split_heads", rng.normal(size=(3, 1, 10)), 2),
               probe="a batch of sequences holding a single token (T = 1)")
    x = rng.normal(size=(3, 4, 20))
    yield case("heads hold column blocks", call("split_heads", x, 5),
               probe="head h holds columns h*D/H to (h+1)*D/H of every row: consecutive chunks", check=heads_hold_column_blocks,
               hint=2)
    yield case("merge a sequence", call("merge_heads", rng.normal(size=(3, 5, 4))),
               probe="(3, 5, 4) heads back into a (5, 12) sequence")
    yield case("merge a batch", call("merge_heads", rng.normal(size=(2, 4, 6, 3))),
               probe="(2, 4, 6, 3) back into (2, 6, 12) (one batch axis)")
    yield case("merge with two batch axes", call("merge_heads", rng.normal(size=(3, 2, 5, 4, 7))),
               probe="(3, 2, 5, 4, 7) back into (3, 2, 4, 35) (two batch axes)", hint=2)
    yield case("merge one token", call("merge_heads", rng.normal(size=(2, 3, 1, 5))),
               probe="heads of sequences holding a single token (T = 1)")
    x = rng.normal(size=(2, 6, 21))
    yield case("merge undoes split", call("merge_heads", reference_split(x, 3)),
               probe="merge_heads of a correct split gives back the original (2, 6, 21) array",
               check=round_trip(x))
    y = rng.normal(size=(4, 3, 5, 2))
    yield case("split undoes merge", call("split_heads", reference_merge(y), 3),
               probe="split_heads of a correct merge gives back the original (4, 3, 5, 2) heads",
               check=round_trip(y))
