"""Hidden cases for lesson 11 (token and position embeddings)."""
import numpy as np
import torch

from grader.lessons.authoring import Spec, call, case, edit, promise
from grader.runner.child.wire import Tensor

PROMISES = (
    promise("out[b, t] = wte[ids[b, t]] + wpe[start + t]",
            cases=("a batch from the start", "a continuation", "one new token",
                   "more tokens than vocabulary", "ids that skip the end of the vocabulary"),
            broken_by=("positions-from-zero", "length-from-batch", "arange-stops-at-T",
                       "wpe-indexed-by-ids", "concatenated", "scaled-by-sqrt-d", "one-hot-width",
                       "positions-from-end", "positions-from-one", "no-position-for-one-token")),
    promise("Raises: ValueError, with a message that says what does not fit, when start + T > P.",
            cases=("too far for the table", "longer than the table",
                   "one token more than the table"),
            broken_by=("no-length-check", "sliced-without-check", "bound-ignores-start",
                       "bound-one-late")),
    promise("A sequence that fills the table exactly (start + T == P) is fine.",
            cases=("filling the table exactly", "example 2"), broken_by=("bound-off-by-one",)),
    promise("a float64 tensor of shape (B, T, D)",
            cases=("token and position vectors that nearly cancel", "one new token"),
            broken_by=("one-hot-float32",)),
    promise("Return a tensor, not nested lists", cases=("example 1",),
            broken_by=("returns-list",)),
    promise("Leave ids, wte and wpe unchanged.", cases=("a batch from the start",),
            broken_by=(edit("    tok = wte[ids]", "    tok = wte[ids]\n    wte.zero_()"),)),
    promise("Raise ValueError itself, not an assert or the IndexError a lookup out of range gives.",
            cases=("too far for the table", "longer than the table"),
            broken_by=("assert-not-raise", "sliced-without-check")),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("B, T = ids.shape", "sizes", "ids", "wte", "lookup", "add"), ("position", "start", "torch.arange(start, start + T)", "start + T > P", "ValueError", "time step"), ("wte", "ValueError", "return")),
            functions=("embed",))


def tables(rng, v, p, d, tok_offset=0.0, pos_offset=0.0):
    """wte (V, D) and wpe (P, D): random float64 tensors (real-valued, never small integers)."""
    wte = torch.from_numpy(tok_offset + rng.normal(size=(v, d)))
    wpe = torch.from_numpy(pos_offset + rng.normal(scale=0.5, size=(p, d)))
    return wte, wpe


def token_ids(rng, b, t, v, high=None):
    """A (B, T) int64 tensor of ids below `high` (default V); the last id of the vocabulary, V - 1,
    appears at least once when high is V, so every row of wte can be reached."""
    ids = rng.integers(0, high or v, size=(b, t))
    if high is None:
        ids[rng.integers(b), rng.integers(t)] = v - 1
    return torch.from_numpy(ids.astype(np.int64))


def embedding(rng, b, t, v, p, d, start=0, **offsets):
    wte, wpe = tables(rng, v, p, d, **offsets)
    return call("embed", token_ids(rng, b, t, v), wte, wpe, start=start)


def values(x):
    return np.asarray(x.array if isinstance(x, Tensor) else x, dtype=float)


def pieces_join(got, expected, calls):
    """Embedding the first k tokens, then the rest from start=k, gives the whole sequence's rows."""
    if not all(isinstance(g, Tensor) for g in got):
        return "expected a torch tensor from every call"
    whole, head, tail = (values(g) for g in got)
    k = calls[1].args[0].shape[1]
    if whole.shape != np.shape(expected[0].array) or head.shape[:2] != tuple(calls[1].args[0].shape) \
            or tail.shape[:2] != tuple(calls[2].args[0].shape):
        return (f"expected shapes {[tuple(e.array.shape) for e in expected]}, "
                f"got {[g.shape for g in (whole, head, tail)]}")
    if not np.allclose(head, whole[:, :k], rtol=1e-6, atol=1e-9):
        return "the first tokens embedded alone differ from the same tokens in the whole sequence"
    if not np.allclose(tail, whole[:, k:], rtol=1e-6, atol=1e-9):
        worst = np.max(np.abs(tail - whole[:, k:]))
        return (f"the continuation embedded from start={k} differs from the same tokens in the whole "
                f"sequence (by up to {worst:.6g}): its tokens are not at positions {k} and after")
    if not np.allclose(whole, expected[0].array, rtol=1e-6, atol=1e-9):
        return "the pieces join up, but the values are not token plus position embeddings"
    return None


def cases(rng):
    yield case("a batch from the start", embedding(rng, 3, 5, 11, 8, 4),
               probe="ids (3, 5) with V=11, wte (11, 4), wpe (8, 4), start=0", hint=1)
    yield case("a continuation", embedding(rng, 2, 3, 7, 9, 6, start=4),
               probe="ids (2, 3) from start=4: positions 4, 5, 6 (wpe has 9 rows)", hint=2)
    yield case("one new token", embedding(rng, 3, 1, 13, 10, 5, start=6),
               probe="T=1: one new token per sequence at position 6 (a decoding step)", hint=2)
    yield case("one sequence", embedding(rng, 1, 4, 6, 12, 3, start=2),
               probe="B=1: ids (1, 4) from start=2", hint=2)
    yield case("filling the table exactly", embedding(rng, 2, 5, 9, 8, 3, start=3),
               probe="start=3 and T=5 with P=8: the last token takes the last row of wpe", hint=2)
    yield case("more tokens than vocabulary", embedding(rng, 2, 9, 4, 10, 7),
               probe="ids (2, 9) with only V=4 tokens, so ids repeat within a row", hint=1)
    yield case("a large vocabulary", embedding(rng, 2, 4, 40, 6, 5, start=1),
               probe="V=40 token ids, most of them larger than P=6: positions, not ids, index wpe", hint=2)

    wte, wpe = tables(rng, 15, 7, 5)
    yield case("ids that skip the end of the vocabulary",
               call("embed", token_ids(rng, 3, 4, 15, high=6), wte, wpe, start=1),
               probe="V=15 rows in wte, but every id in this batch is below 6", hint=3)
    yield case("token and position vectors that nearly cancel",
               embedding(rng, 2, 4, 8, 6, 5, start=1, tok_offset=1000.0, pos_offset=-1000.0),
               probe="wte entries near +1000 and wpe entries near -1000: the sum is of order 1, so "
                     "any float32 rounding of the tables shows", hint=3)

    wte, wpe = tables(rng, 10, 11, 4)
    ids = token_ids(rng, 2, 7, 10)
    yield case("a continuation joins up",
               call("embed", ids, wte, wpe), call("embed", ids[:, :3].clone(), wte, wpe),
               call("embed", ids[:, 3:].clone(), wte, wpe, start=3),
               probe="embedding tokens 0-2 from start=0 and tokens 3-6 from start=3 gives the rows "
                     "of embedding all 7 at once", check=pieces_join, hint=2)

    wte, wpe = tables(rng, 9, 6, 5)
    yield case("too far for the table", call("embed", token_ids(rng, 2, 4, 9), wte, wpe, start=3),
               probe="start=3 and T=4 with P=6: position 6 has no row, so the call raises ValueError",
               raises="ValueError", hint=2)
    wte, wpe = tables(rng, 12, 5, 3)
    yield case("longer than the table", call("embed", token_ids(rng, 2, 7, 12), wte, wpe),
               probe="T=7 tokens from start=0 with P=5: the call raises ValueError",
               raises="ValueError", hint=2)
    wte, wpe = tables(rng, 8, 6, 4)
    yield case("one token more than the table", call("embed", token_ids(rng, 2, 7, 8), wte, wpe),
               probe="T=7 tokens from start=0 with P=6: position 6, just past the last row, has no "
                     "row, so the call raises ValueError", raises="ValueError", hint=2)
