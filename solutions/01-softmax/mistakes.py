"""Known mistakes for lesson 01 (stable softmax)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("no-max-shift", hint=1, message="""\
Your softmax exponentiates the logits directly. That is the textbook formula, but `np.exp` overflows
to `inf` past about 709, and `inf / inf` is `nan`. Subtract each slice's maximum first: softmax does
not change when every entry moves by the same amount, and after the shift every `exp` lies in [0, 1].""")
def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("fixed-last-axis", hint=2, message="""\
Your softmax always normalises along the last axis, whatever `axis` says. Pass `axis=axis` to every
reduction (the max and the sum), so that the slices that sum to 1 are the ones the caller asked for.""")
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


@mistake("global-max", hint=2, message="""\
You subtract the maximum of the whole array rather than of each slice. It stops overflow, but a slice
whose entries all sit far below the global maximum underflows to zeros and then divides 0 by 0.
Take the maximum along `axis` with `keepdims=True`, so every slice is shifted by its own maximum.""")
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("no-keepdims", hint=2, message="""\
Your reductions drop the axis they reduce (no `keepdims=True`), so the maximum or the sum broadcasts
back against the wrong axis of `x`: the numbers subtracted or divided by belong to other slices.
With `keepdims=True` the reduced axis stays, with size 1, and lines up with the slices it came from.""")
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis)


@mistake("sum-over-everything", hint=2, message="""\
You divide by the sum of the whole array, so the entire array sums to 1 instead of each slice.
Sum along `axis` with `keepdims=True`: softmax normalises every slice on its own.""")
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e)


@mistake("in-place-shift", hint=3, message="""\
Your function changes the caller's array: `x -= ...` (or `np.exp(x, out=x)`) writes into the input.
The caller still needs its logits afterwards. Build the shifted values as a new array: `x - m`.""")
def softmax(x, axis=-1):
    x -= np.max(x, axis=axis, keepdims=True)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("shift-by-min", hint=1, message="""\
You subtract something other than each slice's maximum before `exp` (its minimum, its mean, a
constant). Any shift leaves the softmax unchanged on paper, but only the maximum makes every
exponent 0 or below: after subtracting anything smaller, the largest logit can keep a large positive
exponent, and when it sits more than about 710 above the shift, `exp` overflows to inf and inf / inf
is NaN. Subtract the maximum.""")
def softmax(x, axis=-1):
    finite = np.where(np.isfinite(x), x, np.inf)
    e = np.exp(x - np.min(finite, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("sum-of-unshifted", hint=3, message="""\
You subtract the maximum before `exp` in the numerator, but the denominator sums `exp(x)` of the
unshifted values. The two no longer match: every result is scaled by exp(-max), so the slices no
longer sum to 1, and for large logits `exp(x)` in the denominator overflows all the same. Sum the
same shifted exponentials you divide: `e = np.exp(x - m)`, then `e / np.sum(e, ...)`.""")
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(np.exp(x), axis=axis, keepdims=True)


@mistake("whole-array-softmax", hint=2, message="""\
You take the maximum and the sum of the whole array (no `axis`), so the entire array becomes one
probability distribution: the slices do not each sum to 1, and a slice far below the others
underflows to zeros. Softmax normalises every slice along `axis` on its own: take the maximum and
the sum along `axis`, with `keepdims=True`.""")
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)


@mistake("clip-logits", hint=1, message="""\
You clip the logits (for example `np.clip(x, -500, 500)`) so that `np.exp` cannot overflow. Clipping
changes the numbers themselves: logits near 1000 all become the same clipped value and their
softmax turns uniform, whatever their differences were. Shift instead of clipping: subtracting each
slice's maximum keeps every exponent at or below 0 without changing the answer.""")
def softmax(x, axis=-1):
    e = np.exp(np.clip(x, -500.0, 500.0))
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("shift-by-mean", hint=1, message="""\
You subtract each slice's mean before `exp`. Any shift leaves the softmax unchanged on paper, but
only the maximum makes every exponent 0 or below: after subtracting the mean, logits far above it
overflow `exp`, and a slice holding -inf has a mean of -inf, so `x - mean` gives NaN. Subtract each
slice's maximum (along `axis`, with `keepdims=True`).""")
def softmax(x, axis=-1):
    e = np.exp(x - np.mean(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("float32", hint=3, message="""\
You compute the softmax in float32 (for example with `x.astype(np.float32)`), which keeps only about
7 significant digits, so your probabilities differ from the float64 answer in the 7th or 8th digit.
Keep the array's own dtype (float64): `np.exp(x - m)` of a float64 array stays float64.""")
def softmax(x, axis=-1):
    x = x.astype(np.float32)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("neginf-to-zero", hint=3, message="""\
You replace the -inf logits with 0 (for example `np.nan_to_num(x, neginf=0)` or
`np.where(np.isinf(x), 0, x)`) to avoid NaN. A logit of -inf means "probability exactly 0", but a
logit of 0 gets the same weight as any ordinary logit. Leave -inf alone: after subtracting the
maximum, `np.exp(-inf)` is exactly 0, and since every slice has a finite maximum no NaN appears.""")
def softmax(x, axis=-1):
    x = np.where(np.isneginf(x), 0.0, x)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


@mistake("not-normalised", hint=2, message="""\
You return the exponentials themselves, without dividing by their sum, so the slices do not sum to
1 (the largest entry of each is exactly 1). The softmax is a distribution: divide `np.exp(x - m)` by
its sum along the same axis, `np.sum(e, axis=axis, keepdims=True)`.""")
def softmax(x, axis=-1):
    return np.exp(x - np.max(x, axis=axis, keepdims=True))
