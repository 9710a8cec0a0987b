"""Hidden cases for lesson 01 (stable softmax)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("Returns: an array of the same shape whose slices along axis are non-negative and sum "
            "to 1.", cases=("rows sum to one", "random 2-D scores", "batched 3-D scores"),
            broken_by=("not-normalised", "sum-of-unshifted", "whole-array-softmax")),
    promise("Entries may be huge or -inf", cases=("huge logits", "very negative logits", "-inf entries"),
            broken_by=("no-max-shift", "clip-logits", "neginf-to-zero")),
    promise("any valid axis, negative ones included",
            cases=("axis -2", "middle axis", "axis 0 of a non-square array"),
            broken_by=("fixed-last-axis",)),
    promise("Stable: no overflow warnings, no nan, for logits as large as 1000 or more.",
            cases=("example 2", "huge logits", "a wide spread in every row"),
            broken_by=("no-max-shift", "shift-by-min", "shift-by-mean")),
    promise("Works along any axis, for inputs with any number of dimensions.",
            cases=("batched 3-D scores", "middle axis", "square array, axis 0",
                   "rows of very different sizes"),
            broken_by=("no-keepdims", "global-max", "sum-over-everything")),
    promise("Leaves x unchanged (no in-place operations on it).", cases=("random 2-D scores",),
            broken_by=("in-place-shift",)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("constant", "largest", "logit", "huge"), ("maximum", "keepdims", "sum", "axis"), ("x - m", "np.exp")),
            functions=("softmax",))


def rows_sum_to_one(got, expected, calls):
    sums = np.sum(got[0], axis=calls[0].kwargs.get("axis", -1))
    if not np.allclose(sums, 1.0, rtol=0, atol=1e-9):
        return f"the slices should each sum to 1; yours sum to values from {sums.min():.6g} to {sums.max():.6g}"
    return None


def cases(rng):
    yield case("random 2-D scores", call("softmax", rng.normal(size=(4, 7))),
               probe="a (4, 7) array of real-valued logits, last axis")
    yield case("batched 3-D scores", call("softmax", rng.normal(scale=3.0, size=(2, 3, 5))),
               probe="a (2, 3, 5) array, last axis")
    yield case("one logit", call("softmax", rng.normal(size=(3, 1))),
               probe="slices of length 1 (each softmax is exactly 1)")
    yield case("huge logits", call("softmax", 1000.0 + rng.normal(scale=5.0, size=(3, 6))),
               probe="logits near 1000, with floating-point warnings raised as errors",
               float_errors=True, hint=1)
    yield case("very negative logits", call("softmax", -1000.0 + rng.normal(size=(2, 5))),
               probe="logits near -1000, with floating-point warnings raised as errors",
               float_errors=True, hint=1)
    yield case("rows of very different sizes",
               call("softmax", np.array([[0.3, -1.2, 2.1, 0.7], [-900.5, -899.1, -901.7, -898.2]])),
               probe="one row near 0 and one near -900: each row needs its own maximum", hint=2)
    yield case("axis 0 of a non-square array", call("softmax", rng.normal(size=(5, 3)), axis=0),
               probe="softmax down the columns of a (5, 3) array", hint=2)
    yield case("middle axis", call("softmax", rng.normal(size=(2, 4, 3)), axis=1),
               probe="axis=1 of a (2, 4, 3) array", hint=2)
    yield case("axis -2", call("softmax", rng.normal(size=(3, 6, 2)), axis=-2),
               probe="a negative axis other than -1")
    yield case("square array, axis 0", call("softmax", rng.normal(size=(4, 4)), axis=0),
               probe="axis 0 of a square array (where a missing keepdims still broadcasts)", hint=2)
    yield case("square array, last axis", call("softmax", rng.normal(size=(5, 5))),
               probe="the last axis of a square array", hint=2)
    x = rng.normal(size=(3, 5))
    x[0, 1] = x[1, 4] = x[2, 0] = x[2, 3] = -np.inf
    yield case("-inf entries", call("softmax", x),
               probe="rows containing -inf (those entries get probability 0)")
    yield case("rows sum to one", call("softmax", rng.normal(scale=10.0, size=(6, 9))),
               probe="each row of the output sums to 1", check=rows_sum_to_one)
    # Each row spans 2200 from its smallest to its largest logit, lopsidedly: its maximum sits more
    # than 1300 above its mean and 2200 above its minimum, so shifting by anything but the maximum
    # (the minimum, the mean, a constant) overflows exp, whatever the draw.
    x = rng.uniform(-1, 1, size=(3, 6))
    x[:, 0], x[:, -1] = -700.0, 1500.0
    yield case("a wide spread in every row", call("softmax", x),
               probe="rows whose logits run from -700 to 1500: only subtracting each row's maximum "
                     "keeps every exponent at or below 0", float_errors=True, hint=1)
