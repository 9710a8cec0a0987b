"""Known mistakes for lesson 17 (grouped-query attention)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("tile-kv-heads", hint=2, message="""\
You share the key/value heads round-robin: `np.tile` (or indexing with h % n_kv_heads, or a
reshape of the query heads into (group size, n_kv_heads)) lays them out as kv0, kv1, kv0, kv1, ...,
so query head h reads key/value head h % n_kv_heads. In GQA the query heads come in consecutive
groups: heads 0 .. g-1 share key/value head 0, the next g share head 1, and so on, i.e. head h uses
h // g with g = n_heads / n_kv_heads. Repeat each head g times in a row, `np.repeat(k, g, axis=-3)`
(that is what `repeat_kv` in `transformers` does). The two agree when there is one key/value head
or one per query head, which is why only 1 < n_kv_heads < n_heads shows the difference.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    g = n_heads // n_kv_heads
    k = np.tile(k, (g, 1, 1))
    v = np.tile(v, (g, 1, 1))
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("group-index-by-kv-count", hint=2, message="""\
You send query head h to key/value head h // n_kv_heads: you divide by the number of key/value
heads instead of by the size of a group. The group size is g = n_heads / n_kv_heads, and query head h
belongs to group h // g. Dividing by n_kv_heads either leaves some key/value heads unused (8 query
heads and 4 key/value heads: heads 0-3 all read head 0) or asks for a head that does not exist
(6 and 2: head 5 asks for head 2). `np.repeat(k, g, axis=-3)` does the mapping for you.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    index = np.arange(n_heads) // n_kv_heads
    return merge_heads(causal_attention(q, k[..., index, :, :], v[..., index, :, :])) @ Wo


@mistake("kv-split-into-query-heads", hint=1, message="""\
You split the keys and values into n_heads heads, as if Wk and Wv were (D, D); equivalently, you
take the head size from Wk's width divided by n_heads. Wk and Wv have only n_kv_heads * hd columns:
split them into n_kv_heads heads of the same size hd = D / n_heads as the query heads,
`split_heads(x @ Wk, n_kv_heads)`, and then share each one with its group of query heads.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("scale-by-kv-width", hint=3, message="""\
You divide the scores by sqrt of Wk's width, n_kv_heads * hd, the size of all the key heads together.
A score is the dot product of one query head with one key head, which adds hd = D / n_heads terms,
so the scale is 1 / sqrt(hd). After splitting and sharing the heads, `causal_attention` reads it
from `q.shape[-1]` on its own.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    g = n_heads // n_kv_heads
    k, v = np.repeat(k, g, axis=-3), np.repeat(v, g, axis=-3)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(Wk.shape[-1])
    scores = np.where(causal_mask(x.shape[-2]), scores, -np.inf)
    return merge_heads(softmax(scores, axis=-1) @ v) @ Wo


@mistake("scale-by-model-width", hint=3, message="""\
You divide the scores by sqrt(D), the full model width, instead of sqrt(D / n_heads), the head
size. Sharing key/value heads changes nothing here: each score is still one query head against one
key head of size hd = D / n_heads. `causal_attention` on the split heads uses the right scale.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    g = n_heads // n_kv_heads
    k, v = np.repeat(k, g, axis=-3), np.repeat(v, g, axis=-3)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(x.shape[-1])
    scores = np.where(causal_mask(x.shape[-2]), scores, -np.inf)
    return merge_heads(softmax(scores, axis=-1) @ v) @ Wo


@mistake("repeat-on-axis-1", hint=2, message="""\
You repeat the key/value heads along axis 1. That is the head axis only when the heads have shape
(B, H, T, hd), with exactly one batch axis (the layout `repeat_kv` in `transformers` assumes). Here x
may have no batch axis or several, so axis 1 can be the time axis or a batch axis. Count from the
end: the head axis of (..., H, T, hd) is axis -3, `np.repeat(k, g, axis=-3)`.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    g = n_heads // n_kv_heads
    k, v = np.repeat(k, g, axis=1), np.repeat(v, g, axis=1)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("no-causal-mask", hint=3, message="""\
Your attention has no causal mask: every token attends to every other token, later ones included.
Grouped-query attention changes who shares keys and values, not what a token may see: query i still
attends to keys 0..i only. Use `causal_attention` on the shared heads.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    g = n_heads // n_kv_heads
    k, v = np.repeat(k, g, axis=-3), np.repeat(v, g, axis=-3)
    return merge_heads(attention(q, k, v)) @ Wo


@mistake("mask-after-softmax", hint=3, message="""\
You take the softmax over all keys, then zero the future keys' weights and divide by what is left.
On paper that equals masking first, but not in floating point: when a future key scores far above
the keys a query may see, the visible keys' weights underflow to exactly 0, and 0 / 0 is NaN. Mask
the scores before the softmax, as `causal_attention` does.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    g = n_heads // n_kv_heads
    k, v = np.repeat(k, g, axis=-3), np.repeat(v, g, axis=-3)
    weights = softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]), axis=-1)
    weights = np.where(causal_mask(x.shape[-2]), weights, 0.0)
    weights = weights / np.sum(weights, axis=-1, keepdims=True)
    return merge_heads(weights @ v) @ Wo


@mistake("no-output-projection", hint=3, message="""\
Your function returns the merged heads without multiplying by `Wo`. As in lesson 08, the output
projection is what lets every output column combine what all the query heads found; sharing keys
and values does not remove it. Apply `Wo` once, after `merge_heads`.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k, v = split_heads(x @ Wk, n_kv_heads), split_heads(x @ Wv, n_kv_heads)
    g = n_heads // n_kv_heads
    k, v = np.repeat(k, g, axis=-3), np.repeat(v, g, axis=-3)
    return merge_heads(causal_attention(q, k, v))


@mistake("repeat-by-kv-count", hint=2, message="""\
You repeat each key/value head n_kv_heads times instead of once per query head of its group,
g = n_heads // n_kv_heads times, so the number of key/value heads no longer matches the number of
query heads (it only happens to when the two counts agree). Use `np.repeat(k, n_heads // n_kv_heads,
axis=-3)`, and the same for v.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), n_kv_heads, axis=-3)
    v = np.repeat(split_heads(x @ Wv, n_kv_heads), n_kv_heads, axis=-3)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("group-size-inverted", hint=2, message="""\
Your group size is `n_kv_heads // n_heads`, upside down: with fewer key/value heads than query heads
it is 0, and repeating every head 0 times leaves no keys at all. The group size is
`n_heads // n_kv_heads`, the number of query heads that share one key/value head.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    g = n_kv_heads // n_heads
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-3)
    v = np.repeat(split_heads(x @ Wv, n_kv_heads), g, axis=-3)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("values-not-repeated", hint=2, message="""\
You repeat one of k and v for every query head but not the other (usually the values), so
H query heads meet only n_kv_heads heads of it and numpy cannot broadcast the two. Keys and values
are shared alike: `k = np.repeat(k, n_heads // n_kv_heads, axis=-3)` and the same for v.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), n_heads // n_kv_heads, axis=-3)
    v = split_heads(x @ Wv, n_kv_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("repeat-without-axis", hint=2, message="""\
You call `np.repeat(k, g)` without an axis. Without one numpy flattens the array and repeats every
single number, so k is no longer a stack of heads. Name the head axis, counted from the end:
`np.repeat(k, n_heads // n_kv_heads, axis=-3)`.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), n_heads // n_kv_heads)
    v = np.repeat(split_heads(x @ Wv, n_kv_heads), n_heads // n_kv_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("repeat-on-axis-0", hint=2, message="""\
You repeat the key/value heads along axis 0. That is the head axis only when x has no batch axis;
with one (or more), axis 0 is the batch, and you repeat sequences instead of heads. Count the head
axis from the end, where it always is: `np.repeat(k, n_heads // n_kv_heads, axis=-3)`.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), n_heads // n_kv_heads, axis=0)
    v = np.repeat(split_heads(x @ Wv, n_kv_heads), n_heads // n_kv_heads, axis=0)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("repeat-columns-before-split", hint=2, message="""\
You repeat the columns of `x @ Wk` (and `x @ Wv`) before splitting into heads. `np.repeat` on the
last axis copies every single column in place (c0, c0, c1, c1, ...), so a head ends up with
duplicated pieces of one key head rather than the whole of it. Split first,
`split_heads(x @ Wk, n_kv_heads)`, then repeat whole heads along the head axis, `axis=-3`.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    g = n_heads // n_kv_heads
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(np.repeat(x @ Wk, g, axis=-1), n_heads)
    v = split_heads(np.repeat(x @ Wv, g, axis=-1), n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("values-from-wk", hint=1, message="""\
Your values are made with Wk (a copy-paste of the key line), so every head averages keys instead
of values. Each projection has its own weight: `v = split_heads(x @ Wv, n_kv_heads)`.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    g = n_heads // n_kv_heads
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-3)
    v = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-3)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("repeat-on-time-axis", hint=2, message="""\
You repeat the key/value heads along the time axis (`axis=-2`, or axis 1 of (H, T, hd)), which
copies every token g times instead of every head, so the number of key/value heads still does not
match the query heads (and with a single key/value head the tokens are counted several times). The
heads of (..., H, T, hd) are on axis -3: `np.repeat(k, n_heads // n_kv_heads, axis=-3)`.""")
def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    g = n_heads // n_kv_heads
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-2)
    v = np.repeat(split_heads(x @ Wv, n_kv_heads), g, axis=-2)
    return merge_heads(causal_attention(q, k, v)) @ Wo
