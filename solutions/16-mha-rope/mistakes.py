"""Known mistakes for lesson 16 (causal multi-head attention with RoPE)."""
import numpy as np

from grader.lessons.authoring import mistake


def _positions(x, positions):
    return np.arange(x.shape[-2]) if positions is None else positions


@mistake("rope-on-values", hint=2, message="""\
You rotate the values as well as the queries and keys. RoPE belongs on the queries and keys only:
their dot products are where position information is wanted, and rotating both turns absolute
positions into distances. The values are what attention averages and hands on; rotating them
stamps each value with its absolute position, so shifting every position changes the output.
Leave `v` as `split_heads(x @ Wv, n_heads)`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = rope(split_heads(x @ Wv, n_heads), positions, theta)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("rope-before-split", hint=2, message="""\
You apply RoPE to the full-width queries and keys, `rope(x @ Wq, ...)`, and split into heads
afterwards. RoPE works inside each head: every head's vector of size D/H has its own pairs (column i
with column i + D/H/2) and its own frequencies theta ** (-2i / (D/H)). Over the full width, column i
is paired with column i + D/2, which lives in another head, and the frequencies are spread over D
columns. Split first, then rotate `q` and `k` of shape (..., H, T, D/H).""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = split_heads(rope(x @ Wq, positions, theta), n_heads)
    k = split_heads(rope(x @ Wk, positions, theta), n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("rope-on-queries-only", hint=2, message="""\
You rotate the queries but not the keys. The point of RoPE is that both are rotated, so that in a
query-key dot product the two absolute angles cancel to their difference: the score then depends
only on how far apart the two tokens are. With only the queries rotated, the scores depend on the
query's absolute position. Apply `rope` to `k` as well, with the same positions.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("rope-on-input", hint=1, message="""\
You rotate the input `x` before projecting it, the way GPT adds a position embedding to the tokens
at the start. RoPE is not an input embedding: the projections `Wq` and `Wk` would mix the rotated
pairs and destroy the relative-position property. It is applied inside attention, to the queries
and keys of each head after projection and splitting: `rope(split_heads(x @ Wq, n_heads), ...)`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    xr = rope(x, positions, theta)
    q = split_heads(xr @ Wq, n_heads)
    k = split_heads(xr @ Wk, n_heads)
    v = split_heads(xr @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("positions-ignored", hint=2, message="""\
You rotate by `np.arange(T)` whatever `positions` says. Because only distances matter, that happens
to work whenever the given positions are 0 .. T-1 shifted by a constant, but not when they have
gaps (packed sequences, or tokens left out): then the distances change. Use `positions` when it is
given, and `np.arange(T)` only when it is None.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = np.arange(x.shape[-2])
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("theta-not-passed", hint=2, message="""\
You call `rope(q, positions)` without passing `theta`, so it always uses the default 10000 and
ignores the `theta` your function was given. Models differ here (LLaMA 1 and 2 use 10000, LLaMA 3
uses 500000): pass it on, `rope(q, positions, theta)`, for the keys too.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions)
    k = rope(split_heads(x @ Wk, n_heads), positions)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("scale-by-model-width", hint=1, message="""\
You divide each head's scores by sqrt(D), the full model width, instead of sqrt(D / H), the head
size. Inside one head a dot product adds only D / H terms; rotating the queries and keys does not
change that (a rotation keeps lengths). Split the heads first and `causal_attention` reads the
right scale from `q.shape[-1]`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    t = x.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(x.shape[-1])
    scores = np.where(causal_mask(t), scores, -np.inf)
    return merge_heads(softmax(scores, axis=-1) @ v) @ Wo


@mistake("mask-after-softmax", hint=1, message="""\
You take the softmax over all keys, then zero the future keys' weights and divide by what is left.
On paper that equals masking first, but not in floating point: when a future key scores far above
the keys a query may see (here by more than 1000), the softmax gives the visible keys weights that
underflow to exactly 0, and 0 / 0 is NaN. Mask the scores before the softmax (set hidden ones to
-inf), as `causal_attention` does, so the future never enters the sum.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    t = x.shape[-2]
    weights = softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]), axis=-1)
    weights = np.where(causal_mask(t), weights, 0.0)
    weights = weights / np.sum(weights, axis=-1, keepdims=True)
    return merge_heads(weights @ v) @ Wo


@mistake("no-causal-mask", hint=1, message="""\
Your attention has no causal mask: every token attends to every other token, later ones included.
RoPE tells a query how far away each key is, but it does not hide the future; the mask still does.
Use `causal_attention` (or `attention` with `causal_mask(T)`) on the rotated queries and keys.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(attention(q, k, v)) @ Wo


@mistake("rope-on-output", hint=2, message="""\
You rotate the heads' outputs after attention instead of the queries and keys before it. RoPE has
to act on the scores, which are computed from the queries and keys: rotating the result of the
softmax average only stamps each output row with its absolute position. Rotate `q` and `k` (after
splitting, before `causal_attention`) and leave the attention output alone.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(rope(causal_attention(q, k, v), positions, theta)) @ Wo


@mistake("positions-truth-value", hint=3, message="""\
Your code stops on "The truth value of an array with more than one element is ambiguous" whenever
positions are given: `positions or np.arange(T)`, `if not positions:` and `if positions == None:`
all ask numpy for the truth of a whole array. Test for the missing argument itself:
`if positions is None: positions = np.arange(x.shape[-2])`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = positions or np.arange(x.shape[-2])
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("default-positions-from-first-axis", hint=3, message="""\
When positions are left out you count them along another axis than the tokens' (with
`np.arange(len(x))` or `x.shape[0]` that is the batch axis as soon as x has one). The tokens sit on
the second-to-last axis: `np.arange(x.shape[-2])`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = np.arange(len(x)) if positions is None else positions
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("scaled-twice", hint=1, message="""\
You divide the queries (or the scores) by sqrt(D/H) yourself and then call `causal_attention`, which
divides by sqrt(D/H) again, so the scores are scaled twice. The given attention already does the
scaling: pass it the rotated q and k as they are.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q / np.sqrt(q.shape[-1]), k, v)) @ Wo


@mistake("no-output-projection", hint=3, message="""\
You return the merged heads without the output projection. Multi-head attention ends, as in lesson
08, by mixing the heads with Wo: `merge_heads(causal_attention(q, k, v)) @ Wo`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v))


@mistake("keys-from-wq", hint=2, message="""\
Your keys are made with Wq (a copy-paste of the query line): every head then scores its queries
against themselves. Each projection has its own weight: `k = rope(split_heads(x @ Wk, n_heads),
positions, theta)`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    positions = _positions(x, positions)
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wq, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("positions-none-passed-on", hint=3, message="""\
When positions are left out you pass None on to `rope`, which needs an array of positions and
fails. None only means "the usual positions": replace it first,
`if positions is None: positions = np.arange(x.shape[-2])`.""")
def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    q = rope(split_heads(x @ Wq, n_heads), positions, theta)
    k = rope(split_heads(x @ Wk, n_heads), positions, theta)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo
