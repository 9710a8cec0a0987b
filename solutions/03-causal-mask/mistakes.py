"""Known mistakes for lesson 03 (the causal mask, and causal attention)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("strict-lower-triangle", hint=2, message="""\
Your mask lets a query see only the keys strictly before it (`j < i`), not its own position. The first
query then sees no key at all: its whole row of scores is -inf and the softmax returns NaN. A position
may always attend to itself: the rule is `j <= i` (offset by t_k - t_q when the queries are the last
positions), the lower triangle *with* its diagonal.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q - 1)


@mistake("top-left-alignment", hint=2, message="""\
Your mask puts query i at position i, even when there are more keys than queries. When t_q < t_k the
queries are the *last* t_q positions (a new block after a cached prefix), so query i sits at position
t_k - t_q + i and sees every key up to there. `np.tril(np.ones((t_q, t_k)))` aligns the triangle with
the top-left corner instead; shift it with `k=t_k - t_q`, or compare positions directly.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k), dtype=bool))


@mistake("offset-wrong-sign", hint=2, message="""\
Your triangle is shifted the wrong way: you offset it by t_q - t_k, which is negative when there are
more keys than queries, so the queries see fewer keys than they should (and the first may see none).
Query i sits at position t_k - t_q + i: with `np.tril` the diagonal offset is `k=t_k - t_q`, a
non-negative number.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k), dtype=bool), k=t_q - t_k)


@mistake("upper-triangle", hint=2, message="""\
Your mask lets each query see the keys at its position and *after* it: the upper triangle. Causal
means the opposite: a query may look back, never ahead, so row i is True for the keys j <= i (with
the offset t_k - t_q). Use `np.tril`, or compare positions with `key <= query`.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.triu(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q)


@mistake("numeric-mask", hint=2, message="""\
Your mask holds numbers (1.0 and 0.0) instead of booleans. `np.tril(np.ones(...))` makes floats
unless you ask otherwise. A float mask reads as "1 or 0" and can be mistaken for scores to add; the
mask of this workbook is boolean, True meaning "may attend". Pass `dtype=bool` to `np.ones`, or build
the mask from a comparison such as `key_pos <= query_pos`, which is boolean already.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k)), k=t_k - t_q)


@mistake("square-mask-from-queries", hint=3, message="""\
Your `causal_attention` builds the mask from the number of queries alone, `causal_mask(Tq)`, a
(Tq, Tq) square. When the queries are a block at the end of a longer key sequence, the scores have
shape (Tq, Tk) and the square mask does not fit. Pass both lengths:
`causal_mask(q.shape[-2], k.shape[-2])`.""")
def causal_attention(q, k, v):
    return attention(q, k, v, causal_mask(q.shape[-2]))


@mistake("float-tril-no-offset", hint=2, message="""\
Your mask is `np.tril(np.ones((t_q, t_k)))`, which has two problems. It holds floats (1.0 and 0.0)
rather than booleans, and its triangle starts in the top-left corner, so when there are fewer queries
than keys, query i is treated as position i instead of t_k - t_q + i. Build it as
`np.tril(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q)`, or compare positions: `key_pos <= query_pos`.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k)))


@mistake("renormalise-after-softmax", hint=3, message="""\
You take the softmax over all the keys, then zero the weights of the keys a query may not see
and divide by what is left. On paper that equals the right answer; in floating point it breaks
when a hidden key's score is far above the allowed ones: the softmax gives the allowed keys weights
that underflow to exactly 0, and 0 / 0 is NaN. Mask the scores before the softmax (a score of -inf
for every hidden key), so the softmax only ever shares the weight among the keys that are allowed.""")
def causal_attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = softmax(scores, axis=-1) * causal_mask(q.shape[-2], k.shape[-2])
    return weights / np.sum(weights, axis=-1, keepdims=True) @ v


@mistake("mask-after-softmax", hint=3, message="""\
You mask the weights after the softmax (multiplying them by the mask) and keep them as they are.
The softmax had shared a total weight of 1 among all the keys, future ones included, so the weights
left over sum to less than 1 and each output is a shrunken average. Mask the scores before the
softmax (a score of -inf for every key a query may not see), so the whole weight goes to the keys it
may see.""")
def causal_attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    return softmax(scores, axis=-1) * causal_mask(q.shape[-2], k.shape[-2]) @ v


@mistake("one-key-ahead", hint=2, message="""\
Your mask lets each query see one key too many: the key right after its own position. The diagonal
offset is one too large (for example `np.tril(..., k=1)` or `k=t_k - t_q + 1`, or `j <= i + 1`), so
every query peeks at the next token, the one it is meant to predict. Query i may see key j iff
`j <= t_k - t_q + i`: with `np.tril` the offset is exactly `k=t_k - t_q`.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q + 1)


@mistake("mask-marks-future", hint=2, message="""\
Your mask is True for the keys a query must *not* see (the strict upper triangle, as in
`np.triu(..., k=1)`), the convention of some libraries' "attention masks" of blocked positions. In
this workbook True means "may attend", so the mask is True where key j <= query position
(t_k - t_q + i): the lower triangle with its diagonal, `np.tril(..., k=t_k - t_q)`.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.triu(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q + 1)


@mistake("square-mask-from-keys", hint=3, message="""\
Your `causal_attention` builds a square mask from the number of keys alone, `causal_mask(Tk)`, of
shape (Tk, Tk). When the queries are a block at the end of a longer key sequence the scores have
shape (Tq, Tk), and the square mask either fails to broadcast or turns the Tq query rows into Tk of
them. Pass both lengths: `causal_mask(q.shape[-2], k.shape[-2])`.""")
def causal_attention(q, k, v):
    return attention(q, k, v, causal_mask(k.shape[-2]))


@mistake("lengths-from-axis-0", hint=3, message="""\
Your `causal_attention` reads the sequence lengths from the first axis (`q.shape[0]`, `len(q)`). For
a 2-D (T, d) input that is the length, but with batch dimensions the first axis is the batch, so the
mask has the wrong size. The positions are always the second-to-last axis: build the mask with
`causal_mask(q.shape[-2], k.shape[-2])`.""")
def causal_attention(q, k, v):
    return attention(q, k, v, causal_mask(q.shape[0], k.shape[0]))


@mistake("masked-score-zero", hint=3, message="""\
You set the hidden scores to 0 (for example `scores * mask` or `np.where(mask, scores, 0)`). A score
of 0 is not "no attention": exp(0) = 1, so a future key still gets about as much weight as an
allowed one. Give hidden scores the value -inf before the softmax: `np.where(mask, scores, -np.inf)`
(or pass the mask to lesson 02's `attention`).""")
def causal_attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(causal_mask(q.shape[-2], k.shape[-2]), scores, 0.0)
    return softmax(scores, axis=-1) @ v


@mistake("square-of-t-k", hint=2, message="""\
Your causal_mask always returns a square (t_k, t_k) mask and ignores t_q. When there are fewer
queries than keys, the mask must have one row per query: shape (t_q, t_k), with query i at
position t_k - t_q + i. Build it from both sizes, for example
`np.tril(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q)`.""")
def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_k, t_k), dtype=bool))


@mistake("square-mask-first-rows", hint=3, message="""\
Your `causal_attention` takes the square (Tk, Tk) mask and keeps its first Tq rows
(`causal_mask(Tk)[:Tq]`). Those rows belong to the first Tq positions, but the queries are the
*last* Tq positions of the keys, so each query sees too few keys. Keep the last rows
(`[-Tq:]`), or better, ask for the right mask directly: `causal_mask(q.shape[-2], k.shape[-2])`.""")
def causal_attention(q, k, v):
    return attention(q, k, v, causal_mask(k.shape[-2])[:q.shape[-2]])
