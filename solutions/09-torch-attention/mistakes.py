"""Known mistakes for lesson 09 (attention with PyTorch)."""
import math
import warnings

import torch
import torch.nn.functional as F

from grader.lessons.authoring import mistake


@mistake("float-mask", hint=2, message="""\
You turned the mask into a float tensor of 0s and 1s. PyTorch treats a float `attn_mask` as numbers
to ADD to the scores, not as a yes/no mask: the allowed keys get +1, the hidden ones +0, and the
hidden keys still take part in the softmax. Only a boolean mask hides keys. Build it with
`torch.tensor(mask, dtype=torch.bool)`.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.float64)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("inverted-mask", hint=2, message="""\
You inverted the mask (`~mask`), so queries attend only to the keys they were meant to skip.
In `scaled_dot_product_attention`, and in this workbook, True means "may attend". (Some other
PyTorch APIs, such as the masks of `nn.MultiheadAttention`, use the opposite convention, True for
"hide", which is an easy habit to carry over.) Pass the mask as it is.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    attn_mask = None if mask is None else ~torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("mask-ignored", hint=2, message="""\
Your function never passes the mask to the attention, so every query attends to every key even when
a mask is given. Convert it to a boolean tensor and pass it as `attn_mask=`; when `mask` is None,
pass `attn_mask=None` (or leave it out).""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    return F.scaled_dot_product_attention(q, k, v).tolist()


@mistake("no-dtype", hint=3, message="""\
You build the tensors with `torch.tensor(Q)` and no dtype, so PyTorch guesses it from the data:
Python floats become float32 (about 7 significant digits, too coarse for this lesson's tolerance),
and whole numbers become int64, which attention refuses. Say what you want:
`torch.tensor(Q, dtype=torch.float64)`, and the same for K and V.""")
def solve(Q, K, V, mask=None):
    q, k, v = torch.tensor(Q), torch.tensor(K), torch.tensor(V)
    attn_mask = None if mask is None else torch.tensor(mask)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("float32", hint=3, message="""\
You compute in float32, PyTorch's usual type for decimals. It keeps only about 7 significant digits,
and the rounding of the scores alone moves the answers by more than this lesson's tolerance (one part
in a million). Make every tensor with `dtype=torch.float64`.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float32)
    k = torch.tensor(K, dtype=torch.float32)
    v = torch.tensor(V, dtype=torch.float32)
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("returns-tensor", hint=3, message="""\
Your values are right, but you return a torch tensor. This lesson takes nested lists and gives
nested lists back, so that its answer does not depend on PyTorch at all. Finish with `.tolist()`.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)


@mistake("scaled-twice", hint=1, message="""\
You divide the queries by sqrt(d) yourself and then call `scaled_dot_product_attention`, which
divides the scores by sqrt(d) again: the scores end up divided by d, and the softmax comes out too
flat. The function applies the 1/sqrt(d) scale for you; pass the queries as they are.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    q = q / math.sqrt(q.shape[-1])
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("causal-flag", hint=2, message="""\
You pass `is_causal=True`. That adds a causal mask of PyTorch's own, which is not what this lesson
asks for: without a mask, every query here may attend to every key, and with a mask, PyTorch refuses
to take both (it raises a RuntimeError). The `mask` argument alone says what may be seen: pass it as
`attn_mask=` and leave `is_causal` at its default, False.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=True).tolist()


@mistake("none-mask-converted", hint=2, message="""\
Your function converts `mask` to a tensor even when it is None, and `torch.tensor(None)` raises
a RuntimeError. `mask=None` means "no mask": every query may see every key. Convert the mask only
when there is one, for example `None if mask is None else torch.tensor(mask, dtype=torch.bool)`.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    attn_mask = torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("renormalise-after-softmax", hint=2, message="""\
You take the softmax over all the keys, then zero the weights of the keys a query may not see
and divide by what is left. On paper that equals the right answer; in floating point it breaks
when a hidden key's score is far above the allowed ones: the softmax gives the allowed keys weights
that underflow to exactly 0, and 0 / 0 is NaN. Mask the scores before the softmax (a score of -inf
for every hidden key), so the softmax only ever shares the weight among the keys that are allowed.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1)
    if mask is not None:
        weights = weights * torch.tensor(mask, dtype=torch.bool)
        weights = weights / weights.sum(dim=-1, keepdim=True)
    return (weights @ v).tolist()


@mistake("causal-instead-of-mask", hint=2, message="""\
You pass `is_causal=True` instead of the mask. That applies PyTorch's own lower-triangular mask,
whatever `mask` says: with no mask every query here may see every key, and with a mask the keys it
hides are the ones to hide. Pass the given mask as `attn_mask=torch.tensor(mask, dtype=torch.bool)`
(or None), and leave `is_causal` at its default, False.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True).tolist()


@mistake("masked-fill-true", hint=2, message="""\
You fill the scores with -inf where the mask is True (`scores.masked_fill(mask, float('-inf'))`),
so each query attends only to the keys it was meant to skip, and a query allowed to see every key
gets a row of -inf and NaN weights. `masked_fill` fills where its mask is True, and here True means
"may attend": fill where the mask is False, `scores.masked_fill(~mask, float('-inf'))`.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(torch.tensor(mask, dtype=torch.bool), float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v).tolist()


@mistake("scale-by-value-size", hint=1, message="""\
You scale the scores by 1/sqrt(dv), the size of the value vectors (for example
`scale=1 / math.sqrt(V.shape[-1])`). The scale belongs to the query and key size d = `Q.shape[-1]`,
since it corrects the growth of q . k, a sum of d terms. `scaled_dot_product_attention` already uses
1/sqrt(d) when you leave `scale` out.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask,
                                          scale=1.0 / math.sqrt(v.shape[-1])).tolist()


@mistake("scale-argument-sqrt-d", hint=1, message="""\
You pass `scale=math.sqrt(d)`. The `scale` of `scaled_dot_product_attention` is the factor the
scores are *multiplied* by, so the right value is 1/sqrt(d), and it is already the default. Leave
`scale` out (or pass `1 / math.sqrt(d)`).""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask,
                                          scale=math.sqrt(q.shape[-1])).tolist()


@mistake("transpose-all-axes", hint=1, message="""\
You compute the scores by hand with `k.T`. For a 2-D tensor that swaps its two axes, but with batch
or head axes `.T` reverses every axis, so the product no longer lines up. Swap only the last two:
`k.transpose(-2, -1)`, or let `scaled_dot_product_attention` do the whole computation.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~torch.tensor(mask, dtype=torch.bool), float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v).tolist()


@mistake("causal-when-no-mask", hint=2, message="""\
When no mask is given you pass `is_causal=True`, as if attention without a mask were causal. Here
`mask=None` means "no mask": every query may attend to every key. Call
`scaled_dot_product_attention(q, k, v, attn_mask=None)` in that case; causal attention is the
caller's choice, and the caller makes it by passing a mask.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    if mask is None:
        return F.scaled_dot_product_attention(q, k, v, is_causal=True).tolist()
    attn_mask = torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("double-after-float32", hint=3, message="""\
You convert to float64 only after building the tensors (`torch.tensor(Q).double()`). By then it is too
late: `torch.tensor(Q)` has already stored the decimals as float32, rounding every input to about 7
significant digits, and `.double()` cannot bring the lost digits back. Ask for float64 while the
tensor is made: `torch.tensor(Q, dtype=torch.float64)`, and the same for K and V.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q).double()
    k = torch.tensor(K).double()
    v = torch.tensor(V).double()
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).tolist()


@mistake("softmax-implicit-dim", hint=1, message="""\
Your hand-written attention calls `F.softmax(scores)` without `dim`. PyTorch then guesses the
dimension from the number of dimensions (with a warning): for a 2-D tensor it picks the last one, but
for 3-D or 4-D scores it normalises over the batch or head axis. Always say `dim=-1`, the key
axis, or let `scaled_dot_product_attention` do the whole computation.""")
def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~torch.tensor(mask, dtype=torch.bool), float("-inf"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weights = F.softmax(scores)
    return (weights @ v).tolist()
