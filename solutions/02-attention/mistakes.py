"""Known mistakes for lesson 02 (scaled dot-product attention)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("no-scale", hint=2, message="""\
Your scores are q k^T without the division by sqrt(d). A dot product of two d-long vectors grows
like sqrt(d), so unscaled scores get large, the softmax turns nearly one-hot and attention looks at a
single key. Divide the scores by `np.sqrt(d)`, where d is the size of the query and key vectors
(`q.shape[-1]`), before the softmax.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("scale-by-value-size", hint=2, message="""\
You divide the scores by the square root of the value size `v.shape[-1]`. The scale corrects the
growth of the dot product q . k, which is a sum of d terms, so it depends on the size of the query
and key vectors, d = `q.shape[-1]`. The value size can be anything; it never enters the scores.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(v.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("transpose-all-axes", hint=1, message="""\
You transpose the keys with `k.T`. For a 2-D array that swaps its two axes, but for an array with
batch dimensions `.T` reverses every axis, so a (B, Tk, d) array becomes (d, Tk, B) and the product
no longer lines up. Swap only the last two axes with `np.swapaxes(k, -1, -2)`, which leaves the
batch dimensions where they are.""")
def attention(q, k, v, mask=None):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("softmax-over-queries", hint=2, message="""\
Your softmax normalises the scores down the query axis (axis -2), so each key's column sums to 1
instead of each query's row. A query's weights are a probability distribution over the keys it may
look at: the softmax runs along the last axis, the Tk axis of the (..., Tq, Tk) scores.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-2) @ v


@mistake("mask-after-softmax", hint=2, message="""\
You apply the mask to the weights after the softmax (multiplying them by the mask). The weights of
the keys that remain then no longer sum to 1, so each output is a shrunken average. Mask the scores
before the softmax instead: set the masked scores to -inf, and the softmax gives those keys weight 0
while spreading the whole weight of 1 over the keys that are allowed.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = softmax(scores, axis=-1)
    if mask is not None:
        weights = weights * mask
    return weights @ v


@mistake("renormalise-after-softmax", hint=2, message="""\
You mask the weights after the softmax and divide by their new sum. On paper that gives the right
answer, but when the scores are large the softmax hands all the weight to the best key, and if that
key is masked the allowed keys are left with exact zeros: 0 / 0. Mask the scores before the softmax
(set them to -inf), so the softmax only ever shares the weight among the allowed keys.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = softmax(scores, axis=-1)
    if mask is not None:
        weights = weights * mask
        weights = weights / np.sum(weights, axis=-1, keepdims=True)
    return weights @ v


@mistake("masked-score-zero", hint=2, message="""\
You set the masked scores to 0 (for example `scores * mask`). A score of 0 is not "no attention":
exp(0) = 1, so a masked key still gets about as much weight as an ordinary one. Give the masked
scores the value -inf instead (`np.where(mask, scores, -np.inf)`): exp(-inf) = 0, so the softmax gives
them weight exactly 0.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores * mask
    return softmax(scores, axis=-1) @ v


@mistake("inverted-mask", hint=2, message="""\
Your mask works the wrong way round: you hide the keys where the mask is True and keep the ones
where it is False. In this workbook (as in PyTorch's `scaled_dot_product_attention`), True means
"may attend". Keep the scores where the mask is True: `np.where(mask, scores, -np.inf)`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    return softmax(scores, axis=-1) @ v


@mistake("boolean-index-mask", hint=2, message="""\
You mask with boolean indexing, `scores[~mask] = -np.inf`. That only works when the mask has exactly
the shape of the scores; a mask that is meant to broadcast, such as one (Tq, Tk) mask shared by a
batch or a (B, 1, Tk) padding mask, raises an IndexError. `np.where(mask, scores, -np.inf)` broadcasts
the mask against the scores and builds a new array.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores[~mask] = -np.inf
    return softmax(scores, axis=-1) @ v


@mistake("finite-mask-fill", hint=2, message="""\
You give masked scores a large negative number (such as -1e4 or -1e9) instead of -inf. That works
while every allowed score is far above it, but a large negative number is still a number: when the
allowed scores are themselves below it, the masked keys win the softmax. Only -inf gives a masked
key a weight of exactly 0 whatever the other scores are: `np.where(mask, scores, -np.inf)`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e4)
    return softmax(scores, axis=-1) @ v


@mistake("scale-by-d", hint=2, message="""\
You divide the scores by d, the key size, instead of by sqrt(d). The dot product of two random
vectors of size d grows like sqrt(d), so dividing by sqrt(d) brings it back to a steady spread;
dividing by d overshoots and flattens every softmax towards uniform as d grows. Use
`/ np.sqrt(q.shape[-1])`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1]
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("multiply-by-sqrt-d", hint=2, message="""\
You multiply the scores by sqrt(d) instead of dividing by it. The scale is there to shrink the dot
products, which grow like sqrt(d) with the key size d; multiplying makes them larger still and the
softmax sharper. Divide: `q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) * np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("power-precedence", hint=2, message="""\
You write the square root as `d ** 1/2` (or `d**1/2`). Python reads that as `(d ** 1) / 2`, so you
divide the scores by d / 2, not by sqrt(d): `**` binds tighter than `/`. Write `d ** 0.5`,
`d ** (1/2)` or `np.sqrt(d)`, with d = `q.shape[-1]`.""")
def attention(q, k, v, mask=None):
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / d ** 1 / 2
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("scale-by-key-count", hint=2, message="""\
You divide the scores by the square root of the number of keys, `k.shape[-2]` (Tk), instead of the
square root of the key size d = `q.shape[-1]`. The scale corrects how a dot product of two d-long
vectors grows with d; how many keys there are does not change any single score. Use
`/ np.sqrt(q.shape[-1])`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-2])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("d-from-axis-1", hint=1, message="""\
You read the key size as `q.shape[1]` (or `k.shape[1]`). For a 2-D (T, d) array that is d, but with
batch dimensions axis 1 is a batch or a sequence axis, so the scale is wrong. Count from the end,
which does not depend on how many batch axes there are: d = `q.shape[-1]`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("transpose-fixed-axes", hint=1, message="""\
You transpose the keys with fixed axes for one number of dimensions (such as
`k.transpose(0, 2, 1)`), so a 2-D input or one with two batch axes fails. Swap only the last two
axes, whatever comes before them: `np.swapaxes(k, -1, -2)`.""")
def attention(q, k, v, mask=None):
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("additive-inf-mask-nan", hint=2, message="""\
You add the mask to the scores as `scores + (1 - mask) * -np.inf` (or `~mask * -np.inf`). For an
allowed key that computes 0 * -inf, which is NaN, not 0, so NaN spreads through every row. Choose
between the two values instead of multiplying: `np.where(mask, scores, -np.inf)`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + (1 - mask) * -np.inf
    return softmax(scores, axis=-1) @ v


@mistake("unstable-softmax", hint=2, message="""\
Your softmax exponentiates the scores without subtracting each row's maximum first. Large scores
overflow `np.exp` to inf, and inf / inf is NaN. Use the stable softmax of lesson 01 along the last
axis: `softmax(scores, axis=-1)`, which subtracts each row's maximum before `np.exp`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores)
    return e / np.sum(e, axis=-1, keepdims=True) @ v


@mistake("scale-by-query-count", hint=2, message="""\
You divide the scores by the square root of the number of queries, `q.shape[-2]` (Tq), instead of
the square root of the key size d = `q.shape[-1]`. The scale corrects how a dot product of two
d-long vectors grows with d; how many queries there are does not change any single score. Use
`/ np.sqrt(q.shape[-1])`.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-2])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ v


@mistake("mask-never-applied", hint=2, message="""\
Your answers are the same with the mask as without it: the softmax is taken before the masked scores
are made, and the masked ones are never used. Set the hidden scores to -inf first,
`scores = np.where(mask, scores, -np.inf)`, and take the softmax of those.""")
def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = softmax(scores, axis=-1)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return weights @ v
