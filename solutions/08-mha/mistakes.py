"""Known mistakes for lesson 08 (causal multi-head attention)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("scale-by-model-width", hint=2, message="""\
You divide each head's scores by sqrt(D), the full model width, instead of sqrt(D / H), the head
size. The scale is there to undo the growth of a dot product with the number of terms it adds, and
inside one head a dot product adds only D / H terms. With the heads split first, `causal_attention`
reads the right scale from `q.shape[-1]` on its own.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    t, d = x.shape[-2], x.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    scores = np.where(causal_mask(t), scores, -np.inf)
    return merge_heads(softmax(scores, axis=-1) @ v) @ Wo


@mistake("no-output-projection", hint=3, message="""\
Your function returns the merged heads without multiplying by `Wo`. Until that last projection,
each group of D / H output columns comes from a single head; `Wo` is the step that lets every output
column combine what all the heads found. Apply it once, after `merge_heads`.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v))


@mistake("no-causal-mask", hint=2, message="""\
Your attention has no causal mask: every token attends to every other token, later ones included,
so an output row changes when a later token changes. This layer is causal: query i may only see keys
0 to i. Use `causal_attention` (or pass `causal_mask(T)` as the mask) instead of plain `attention`.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(attention(q, k, v)) @ Wo


@mistake("reshape-without-transpose", hint=2, message="""\
You turn (..., T, D) into (..., H, T, D/H) with a plain reshape, and back the same way. A reshape
keeps the memory order, so each "head" becomes a run of consecutive numbers that cuts across tokens,
and the attention mixes pieces of different tokens. Reshape to (..., T, H, D/H) first and then swap
the T and H axes (that is `split_heads`); `merge_heads` swaps them back before reshaping.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    *batch, t, d = x.shape
    hd = d // n_heads
    q = (x @ Wq).reshape(*batch, n_heads, t, hd)
    k = (x @ Wk).reshape(*batch, n_heads, t, hd)
    v = (x @ Wv).reshape(*batch, n_heads, t, hd)
    return causal_attention(q, k, v).reshape(*batch, t, d) @ Wo


@mistake("merge-without-transpose", hint=2, message="""\
You split the heads correctly but merge them with a plain reshape of (..., H, T, D/H) into
(..., T, D). That reads the heads' outputs in memory order, so an output row is made of pieces of
several tokens from one head, not of one token from every head. Swap the H and T axes back first
(that is what `merge_heads` does), then reshape.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    heads = causal_attention(q, k, v)
    return heads.reshape(*x.shape) @ Wo


@mistake("heads-never-split", hint=1, message="""\
Your function runs one attention over the full width D and never splits it into heads, so
`n_heads` changes nothing: you compute single-head attention. With H heads, each head attends with
its own D / H columns and its own softmax, scaled by sqrt(D / H). Split the projected queries, keys
and values with `split_heads`, attend, then `merge_heads`.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    return causal_attention(x @ Wq, x @ Wk, x @ Wv) @ Wo


@mistake("weights-transposed", hint=3, message="""\
You multiply by the transposed weights (`x @ W.T`), the way PyTorch's `nn.Linear` stores its
weight as (out, in). In this workbook weights have shape (in, out) and multiply on the right:
`x @ Wq`, `x @ Wk`, `x @ Wv` and `... @ Wo`, with no transpose.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq.T, n_heads)
    k = split_heads(x @ Wk.T, n_heads)
    v = split_heads(x @ Wv.T, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo.T


@mistake("mask-upper-triangle", hint=2, message="""\
Your mask keeps the upper triangle (`np.triu`) instead of the lower one, so each token attends to
itself and the tokens after it: the last token sees only itself and the first sees everything.
True means "may attend", and query i may attend to keys j <= i: that is the lower triangle,
`np.tril`, which is what `causal_mask(T)` builds and `causal_attention` applies for you.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    t = x.shape[-2]
    mask = np.triu(np.ones((t, t), dtype=bool))
    return merge_heads(attention(q, k, v, mask=mask)) @ Wo


@mistake("renormalise-after-softmax", hint=2, message="""\
You take the softmax over all the keys, then zero the weights of the keys a query may not see
and divide by what is left. On paper that equals the right answer; in floating point it breaks
when a hidden key's score is far above the allowed ones: the softmax gives the allowed keys weights
that underflow to exactly 0, and 0 / 0 is NaN. Mask the scores before the softmax (a score of -inf
for every hidden key), so the softmax only ever shares the weight among the keys that are allowed:
`causal_attention` does this for you.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = softmax(scores, axis=-1) * causal_mask(x.shape[-2])
    weights = weights / np.sum(weights, axis=-1, keepdims=True)
    return merge_heads(weights @ v) @ Wo


@mistake("mask-after-softmax", hint=2, message="""\
You mask the weights after the softmax (multiplying them by the mask) and keep them as they are.
The softmax had shared a total weight of 1 among all the keys, future ones included, so the weights
left over sum to less than 1 and each output is a shrunken average. Mask the scores before the
softmax (a score of -inf for every key a query may not see), so the whole weight goes to the keys it
may see: `causal_attention` does this for you.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    return merge_heads(softmax(scores, axis=-1) * causal_mask(x.shape[-2]) @ v) @ Wo


@mistake("k-from-wq", hint=3, message="""\
Your keys are projected with `Wq` (a copy-paste slip: `k = split_heads(x @ Wq, ...)`), so queries and
keys are the same vectors and `Wk` is never used. Each projection has its own weight: `x @ Wq` for
the queries, `x @ Wk` for the keys, `x @ Wv` for the values.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wq, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("v-from-wk", hint=3, message="""\
Your values are projected with `Wk` (a copy-paste slip: `v = split_heads(x @ Wk, ...)`), so the
values are the keys and `Wv` is never used. Each projection has its own weight: `x @ Wq` for the
queries, `x @ Wk` for the keys, `x @ Wv` for the values.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wk, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("queries-keys-swapped", hint=2, message="""\
You pass the keys where the queries go (`causal_attention(k, q, v)`), so the scores are k q^T: each
row holds one key's scores against the queries, the transpose of what attention needs. The order is
queries, keys, values: `causal_attention(q, k, v)`.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(k, q, v)) @ Wo


@mistake("mask-size-from-axis-0", hint=2, message="""\
You build the causal mask from `x.shape[0]` (or `len(x)`). For a 2-D (T, D) input that is T, but with
batch dimensions the first axis is the batch, so the mask has the wrong size. The sequence length is
the second-to-last axis, `x.shape[-2]`; `causal_attention` reads it from the projected queries and
keys for you.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(attention(q, k, v, mask=causal_mask(x.shape[0]))) @ Wo


@mistake("head-size-as-n-heads", hint=1, message="""\
You pass the head size, D // n_heads, where `split_heads` expects the number of heads, so you split
into D/H heads of size H instead of H heads of size D/H (the scale and every softmax change). Split
with `split_heads(x @ Wq, n_heads)`: its second argument is the number of heads.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    hd = x.shape[-1] // n_heads
    q = split_heads(x @ Wq, hd)
    k = split_heads(x @ Wk, hd)
    v = split_heads(x @ Wv, hd)
    return merge_heads(causal_attention(q, k, v)) @ Wo


@mistake("no-scale", hint=2, message="""\
Your scores are q k^T without any scale. Each head's dot products grow with the head size, so the
softmax comes out too sharp. Divide every head's scores by sqrt(D/H), the head size, before the
softmax; `causal_attention` on the split heads does it for you (it reads the size from
`q.shape[-1]`).""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    scores = q @ np.swapaxes(k, -1, -2)
    scores = np.where(causal_mask(x.shape[-2]), scores, -np.inf)
    return merge_heads(softmax(scores, axis=-1) @ v) @ Wo


@mistake("scale-by-head-size", hint=2, message="""\
You divide each head's scores by the head size D/H itself instead of by its square root. A dot
product of two D/H-long vectors grows like sqrt(D/H), so dividing by D/H overshoots and flattens every
softmax. Divide by `np.sqrt(D // n_heads)`; `causal_attention` on the split heads does it for you.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1]
    scores = np.where(causal_mask(x.shape[-2]), scores, -np.inf)
    return merge_heads(softmax(scores, axis=-1) @ v) @ Wo


@mistake("wo-transposed", hint=3, message="""\
You multiply the merged heads by `Wo.T`. Every weight in this workbook has shape (in, out) and
multiplies on the right, the output projection included: `merge_heads(...) @ Wo`, with no
transpose (a square Wo gives the right shape either way, which hides the slip).""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo.T


@mistake("fixed-batch-rank", hint=2, message="""\
Your function is written for exactly one batch axis (`B, T, D = x.shape`, `transpose(0, 2, 1, 3)`),
so an input without a batch axis, or with two, fails. Count the axes from the end: `split_heads` and
`merge_heads` treat every leading axis as a batch axis, and the head axis is then just one more
batch axis for `causal_attention`.""")
def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    B, T, D = x.shape
    hd = D // n_heads
    q = (x @ Wq).reshape(B, T, n_heads, hd).transpose(0, 2, 1, 3)
    k = (x @ Wk).reshape(B, T, n_heads, hd).transpose(0, 2, 1, 3)
    v = (x @ Wv).reshape(B, T, n_heads, hd).transpose(0, 2, 1, 3)
    heads = causal_attention(q, k, v)
    return heads.transpose(0, 2, 1, 3).reshape(B, T, D) @ Wo
