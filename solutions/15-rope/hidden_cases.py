"""Hidden cases for lesson 15 (rotary position embeddings, rotate-half convention)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("pair i is (column i, column i + d/2), for i = 0 .. d/2 - 1",
            cases=("example 1", "batch and head axes", "a single pair (d = 2)"),
            broken_by=("interleaved-pairs", "pairs-counted-from-1", "second-half-not-rotated",
                       "frequencies-repeated-not-concatenated")),
    promise("is turned by the angle positions[t] * theta ** (-2 * i / d) radians, counter-clockwise",
            cases=("positions starting at 5", "another theta", "a batch from position 0",
                   "a single pair (d = 2)"),
            broken_by=("exponent-missing-2", "frequency-per-column", "frequencies-grow",
                       "angles-as-degrees", "integer-division-exponent", "exponent-doubled",
                       "theta-ignored", "sin-cos-swapped", "rotate-half-sign",
                       "integer-division-all-ones")),
    promise("Use the positions you are given; do not assume 0 .. T-1.",
            cases=("positions starting at 5", "positions with gaps"),
            broken_by=("positions-from-zero",)),
    promise("It may start anywhere, have gaps, or repeat.",
            cases=("positions with gaps", "only the distance matters", "example 2"),
            broken_by=("positions-from-zero", "angles-not-outer")),
    promise("with any number of leading axes (batch, heads)",
            cases=("batch and head axes", "a batch from position 0"),
            broken_by=("angles-not-outer",)),
    promise("Returns: an array of the shape of x, every row rotated in the rotate-half convention",
            cases=("far positions", "lengths are kept", "batch and head axes"),
            broken_by=("float32-frequencies", "float32-angles", "float32-throughout-angles")),
    promise("Leave x unchanged.", cases=("positions starting at 5",), broken_by=("modifies-x",)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("pair", "halves", "rotation", "x1", "x2", "d//2"), ("angles", "inv_freq", "positions", "radians", "broadcast", "theta"), ("cos", "sin", "concatenate")),
            functions=("rope",), no_loops=True)


def shapes_differ(got, expected):
    """A message when an output's shape is not the reference's, else None."""
    for g, e in zip(got, expected):
        if np.shape(g) != np.shape(e):
            return f"expected shape {np.shape(e)}, got shape {np.shape(g)}"
    return None


def values_match(got, expected):
    """None when every output equals the reference's, else a message."""
    for g, e in zip(got, expected):
        if not np.allclose(np.asarray(g), np.asarray(e), rtol=1e-6, atol=1e-9):
            return ("the property holds, but the values are not the rotate-half rotary embedding's "
                    "(check the pairing, the frequencies and the direction of the rotation)")
    return None


def relative_only(got, expected, calls):
    """Row by row, rope(q, m + r) . rope(k, m) is the same number for every m."""
    if shapes_differ(got, expected):
        return shapes_differ(got, expected)
    q, k = np.asarray(got[0], dtype=np.float64), np.asarray(got[1], dtype=np.float64)
    dots = np.sum(q * k, axis=-1)
    want = np.sum(expected[0] * expected[1], axis=-1)
    if not np.allclose(dots, dots[0], rtol=1e-6, atol=1e-9):
        ms, gap = calls[1].args[1], calls[0].args[1][0] - calls[1].args[1][0]
        return (f"the same query and key, {gap} positions apart, give dot products that change "
                f"with where they sit (from {dots.min():.6g} to {dots.max():.6g} for key positions "
                f"{ms[0]} to {ms[-1]}; it should be {want[0]:.6g} at every one): after a rotary "
                "embedding the dot product may depend only on the distance")
    return values_match(got, expected)


def norms_kept(got, expected, calls):
    """Every row of the output has the length of the same row of the input."""
    if shapes_differ(got, expected):
        return shapes_differ(got, expected)
    x = calls[0].args[0]
    y = np.asarray(got[0], dtype=np.float64)
    before, after = np.linalg.norm(x, axis=-1), np.linalg.norm(y, axis=-1)
    if not np.allclose(after, before, rtol=1e-6, atol=1e-9):
        worst = np.max(np.abs(after / before - 1.0))
        return (f"the rows changed length (by up to {100 * worst:.3g}%): a rotation of each pair of "
                "columns keeps every vector's length, so yours is not a rotation")
    return values_match(got, expected)


def cases(rng):
    n = rng.normal
    yield case("positions starting at 5", call("rope", n(size=(6, 8)), np.arange(5, 11)),
               probe="x of shape (6, 8) at positions 5 to 10 (not 0 to 5)", hint=2)
    yield case("a batch from position 0", call("rope", n(size=(3, 5, 10)), np.arange(5)),
               probe="x of shape (3, 5, 10) at positions 0 to 4", hint=2)
    yield case("batch and head axes", call("rope", n(size=(2, 3, 7, 12)), np.arange(20, 27)),
               probe="x of shape (2, 3, 7, 12) (batch, heads, T, d) at positions 20 to 26", hint=2)
    yield case("positions with gaps",
               call("rope", n(size=(4, 6)), np.array([7, 2, 11, 30])),
               probe="x of shape (4, 6) at positions 7, 2, 11, 30: not sorted, not consecutive",
               hint=2)
    yield case("position 0 is no rotation",
               call("rope", n(size=(2, 5, 6)), np.array([0, 4, 0, 9, 1])),
               probe="x of shape (2, 5, 6) at positions 0, 4, 0, 9, 1: rows at position 0 come "
                     "back unchanged", hint=2)
    yield case("far positions", call("rope", n(size=(5, 16)), 4000 + np.arange(5)),
               probe="x of shape (5, 16) at positions 4000 to 4004 (angles of thousands of "
                     "radians in the fastest pair)", hint=2)
    yield case("a single pair (d = 2)", call("rope", n(size=(3, 4, 2)), np.arange(1, 5)),
               probe="x of shape (3, 4, 2): one pair, whose frequency is 1, so the angle is the "
                     "position itself", hint=1)
    yield case("another theta", call("rope", n(size=(2, 6, 8)), np.arange(3, 9), theta=500.0),
               probe="x of shape (2, 6, 8) at positions 3 to 8 with theta = 500", hint=2)
    yield case("long sequence, narrow vectors", call("rope", n(size=(2, 13, 4)), np.arange(13)),
               probe="x of shape (2, 13, 4) at positions 0 to 12 (T > d)", hint=2)

    d, r = 10, 3
    q, k = n(size=d), n(size=d)
    ms = np.sort(rng.choice(400, size=6, replace=False))
    yield case("only the distance matters",
               call("rope", np.tile(q, (6, 1)), ms + r), call("rope", np.tile(k, (6, 1)), ms),
               probe=f"the same query at positions m + {r} and the same key at positions m, for six "
                     "values of m between 0 and 400: every row's dot product must be the same",
               check=relative_only, hint=2)

    x = n(scale=2.0, size=(3, 9, 14))
    yield case("lengths are kept",
               call("rope", x, rng.choice(1000, size=9, replace=False)),
               probe="x of shape (3, 9, 14) at nine random positions below 1000: every row keeps "
                     "its length (a rotation keeps lengths)", check=norms_kept, hint=1)
