"""Known mistakes for lesson 07 (splitting and merging heads)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("split-reshape-only", hint=2, message="""\
Your split_heads reshapes `(..., T, D)` straight to `(..., H, T, D/H)`. The shape is right, but a
reshape reads the numbers in their stored order, row after row, so each "head" is cut from a run of
consecutive numbers that crosses from one token into the next: tokens get mixed. Reshape to
`(..., T, H, D/H)` first, which only cuts each row into chunks, then swap the time and head axes.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, n_heads, t, d // n_heads)


@mistake("split-heads-after-time", hint=2, message="""\
Your split_heads stops at shape `(..., T, H, D/H)`: each row is cut into chunks, but the head axis
still sits after the time axis. Attention works on `(..., T, d)` arrays, so the heads have to be a
batch axis in front of time. Finish with `np.swapaxes(..., -2, -3)` to get `(..., H, T, D/H)`.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, t, n_heads, d // n_heads)


@mistake("split-swaps-first-axes", hint=3, message="""\
Your split_heads swaps the first two axes (`swapaxes(0, 1)` or `transpose(1, 0, 2)`), which is right
for a plain `(T, D)` input but not once batch axes come in front: then it moves the batch axis instead
of time. Count the axes from the end: after the reshape to `(..., T, H, D/H)`, swap axes -3 and -2.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d // n_heads), 0, 1)


@mistake("interleaved-heads", hint=2, message="""\
Your heads are interleaved: you reshape to `(..., T, D/H, H)` and move the last axis forward, so head
h gets columns h, h + H, h + 2H, ... instead of the block h*D/H to (h+1)*D/H. Split and merge still
undo each other, so a round trip looks fine, but trained weights expect the block layout: the columns
of Wq that belong to head h are consecutive. Reshape to `(..., T, H, D/H)` instead.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.moveaxis(x.reshape(*lead, t, d // n_heads, n_heads), -1, -3)


@mistake("interleaved-heads")
def merge_heads(x):
    *lead, h, t, dh = x.shape
    return np.moveaxis(x, -3, -1).reshape(*lead, t, dh * h)


@mistake("merge-reshape-only", hint=2, message="""\
Your merge_heads reshapes `(..., H, T, Dh)` straight to `(..., T, H*Dh)`. The shape is right, but the
numbers come out in stored order, so each output row is made of consecutive rows of one head rather
than of one token's chunks from every head. Swap the head and time axes back first (`-3` and `-2`),
then reshape.""")
def merge_heads(x):
    *lead, h, t, dh = x.shape
    return x.reshape(*lead, t, h * dh)


@mistake("merge-swaps-wrong-axes", hint=2, message="""\
Your merge_heads swaps the last two axes (time and head size) instead of the head and time axes, so
the reshape that follows joins numbers from different tokens. The axis to move is the head axis:
`np.swapaxes(x, -3, -2)` turns `(..., H, T, Dh)` into `(..., T, H, Dh)`, and only then does the
reshape to `(..., T, H*Dh)` put each token's heads side by side.""")
def merge_heads(x):
    *lead, h, t, dh = x.shape
    return np.swapaxes(x, -1, -2).reshape(*lead, t, h * dh)


@mistake("merge-fixed-rank", hint=3, message="""\
Your merge_heads is written for exactly one batch axis (`transpose(0, 2, 1, 3)` on a 4-D array), so it
fails when there is no batch axis or more than one. Count the axes from the end instead:
`np.swapaxes(x, -3, -2)` and a reshape to `(*lead, T, H*Dh)` work for any number of leading axes.""")
def merge_heads(x):
    b, h, t, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, t, h * dh)


@mistake("float-head-size", hint=3, message="""\
Your `split_heads` computes the head size with `/`, which in Python 3 always gives a float (12 / 3
is 4.0), and `reshape` refuses a float size. Use integer division, `d // n_heads`: the number of
columns in each head is a whole number.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, n_heads, d / n_heads), -2, -3)


@mistake("split-full-transpose", hint=2, message="""\
After the reshape to `(..., T, H, D/H)` you transpose with `.T` (or `np.transpose` without axes),
which reverses *every* axis instead of swapping time and head: the head size ends up first and the
batch axes last. Swap just the two axes you mean: `np.swapaxes(chunks, -3, -2)`.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, t, n_heads, d // n_heads).T


@mistake("merge-full-transpose", hint=2, message="""\
Your merge_heads transposes with `.T` (or `np.transpose` without axes), which reverses *every* axis
instead of swapping the head and time axes, so the reshape that follows joins the wrong numbers.
Swap just those two: `np.swapaxes(x, -3, -2)`, then reshape to `(..., T, H*Dh)`.""")
def merge_heads(x):
    *lead, h, t, dh = x.shape
    return x.T.reshape(*lead, t, h * dh)


@mistake("n-heads-as-head-size", hint=1, message="""\
You use `n_heads` as the size of each head: you cut each row into chunks of n_heads columns (D/H
chunks), so you get D/H heads of size H. `n_heads` is the number of heads; each head has
`d // n_heads` columns, so reshape to `(..., T, n_heads, d // n_heads)`. Check the shape you return:
`(..., H, T, D/H)`.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.swapaxes(x.reshape(*lead, t, d // n_heads, n_heads), -2, -3)


@mistake("split-interleaved", hint=2, message="""\
Your split_heads reshapes each row to `(D/H, H)` and moves the last axis forward, so head h gets
columns h, h + H, h + 2H, ... instead of the consecutive block h*D/H to (h+1)*D/H. Reshape to
`(..., T, H, D/H)`, which cuts each row into H consecutive chunks, then swap time and head.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return np.moveaxis(x.reshape(*lead, t, d // n_heads, n_heads), -1, -3)


@mistake("merge-heads-last", hint=2, message="""\
Your merge_heads moves the head axis to the very end, `(..., T, Dh, H)`, before the reshape, so each
output row interleaves the heads (one column from each head in turn) instead of putting each head's
block of Dh columns side by side. Swap the head and time axes, `np.swapaxes(x, -3, -2)`, to get
`(..., T, H, Dh)`, then reshape.""")
def merge_heads(x):
    *lead, h, t, dh = x.shape
    return np.moveaxis(x, -3, -1).reshape(*lead, t, h * dh)


@mistake("merge-no-reshape", hint=1, message="""\
Your merge_heads swaps the head and time axes but stops at shape `(..., T, H, Dh)`: the heads are not
joined into one vector per token. Finish with a reshape to `(..., T, H*Dh)`; the shape to return has
the same number of axes as split_heads' input.""")
def merge_heads(x):
    return np.swapaxes(x, -3, -2)


@mistake("merge-concatenate-first-axis", hint=3, message="""\
Your merge_heads concatenates the slices along the first axis (`np.concatenate(x, axis=-1)` or
`np.concatenate(list(x), axis=-1)`). That splits on the head axis only when there is no batch axis;
with one, it joins the batch items side by side instead of the heads. Count from the end:
`np.swapaxes(x, -3, -2)` then reshape to `(*lead, T, H*Dh)`.""")
def merge_heads(x):
    return np.concatenate(list(x), axis=-1)


@mistake("split-fixed-transpose", hint=3, message="""\
Your split_heads transposes with fixed axes written for one input rank (such as
`.transpose(1, 0, 2)` for a (T, D) input), so an input with batch axes raises an error. Count the
axes from the end: after the reshape to `(*lead, T, H, D/H)`, use `np.swapaxes(chunks, -3, -2)`,
which works for any number of leading axes.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, t, n_heads, d // n_heads).transpose(1, 0, 2)


@mistake("merge-fixed-transpose", hint=3, message="""\
Your merge_heads transposes with fixed axes written for one input rank (such as
`.transpose(1, 0, 2)` for an (H, T, Dh) input), so an input with batch axes raises an error. Count the
axes from the end: `np.swapaxes(x, -3, -2)`, then reshape to `(*lead, T, H*Dh)`.""")
def merge_heads(x):
    *lead, h, t, dh = x.shape
    return x.transpose(1, 0, 2).reshape(*lead, t, h * dh)


@mistake("split-fixed-rank", hint=3, message="""\
Your split_heads is written for exactly one batch axis (`B, T, D = x.shape` and
`transpose(0, 2, 1, 3)`), so it fails when there is no batch axis or more than one. Count the axes
from the end instead: `*lead, t, d = x.shape`, reshape to `(*lead, t, n_heads, d // n_heads)`, then
`np.swapaxes(..., -3, -2)`.""")
def split_heads(x, n_heads):
    b, t, d = x.shape
    return x.reshape(b, t, n_heads, d // n_heads).transpose(0, 2, 1, 3)


@mistake("split-transpose-4d", hint=3, message="""\
Your split_heads reshapes correctly but then transposes with `.transpose(0, 2, 1, 3)`, which names
four axes: it only works when there is exactly one batch axis, and any other input raises "axes
don't match array". Swap the two axes counted from the end, which works for any number of leading
axes: `np.swapaxes(chunks, -3, -2)`.""")
def split_heads(x, n_heads):
    *lead, t, d = x.shape
    return x.reshape(*lead, t, n_heads, d // n_heads).transpose(0, 2, 1, 3)


@mistake("merge-transpose-4d", hint=3, message="""\
Your merge_heads transposes with `.transpose(0, 2, 1, 3)`, which names four axes: it only works when
there is exactly one batch axis, and any other input raises "axes don't match array". Swap the head
and time axes counted from the end, `np.swapaxes(x, -3, -2)`, then reshape to `(*lead, T, H*Dh)`.""")
def merge_heads(x):
    *lead, h, t, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(*lead, t, h * dh)
