"""Known mistakes for lesson 06 (RMSNorm)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("subtracts-mean", hint=1, message="""\
You centre each vector (subtract its mean) before dividing: that is layer norm, not RMSNorm.
RMSNorm deliberately skips the centring and divides the vector as it is by its root mean square,
`sqrt(mean(x**2) + eps)`. For vectors whose entries are mostly of one sign the two differ
completely.""")
def rmsnorm(x, gamma, eps=1e-5):
    c = x - np.mean(x, axis=-1, keepdims=True)
    return c / np.sqrt(np.mean(c ** 2, axis=-1, keepdims=True) + eps) * gamma


@mistake("eps-outside-sqrt", hint=2, message="""\
You add eps after the square root, `sqrt(ms) + eps`, instead of inside it, `sqrt(ms + eps)`. The two
agree for vectors of ordinary size but not for tiny ones (a mean square below eps), and lesson 14, like
LLaMA itself, uses `sqrt(mean(x**2) + eps)`. Put eps under the square root.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / (np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True)) + eps) * gamma


@mistake("no-sqrt", hint=2, message="""\
You divide by the mean square itself, without the square root. The mean square is in squared units,
so the result is not a vector of standard size: vectors ten times larger come out ten times smaller.
The root mean square, `np.sqrt(np.mean(x ** 2, ...) + eps)`, has the same units as x.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / (np.mean(x ** 2, axis=-1, keepdims=True) + eps) * gamma


@mistake("sum-of-squares", hint=2, message="""\
You divide by the Euclidean length of each vector, `sqrt(sum(x**2))`, which is `sqrt(D)` times its
root mean square. The output then has length 1 rather than RMS 1, so its entries shrink as D grows.
Average the squares (`np.mean`) instead of adding them up.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.sum(x ** 2, axis=-1, keepdims=True) + eps) * gamma


@mistake("forgot-gamma", hint=3, message="""\
You normalise each vector but never multiply by `gamma`. The gain is RMSNorm's only learned parameter:
it lets the model give each feature its own scale after normalisation. Return `x_hat * gamma`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)


@mistake("wrong-axis", hint=1, message="""\
Your mean square is taken along the first axis, across tokens (or across the batch), rather than
along the last axis, within each vector. RMSNorm, like layer norm, normalises every feature vector by
its own size: reduce along `axis=-1` with `keepdims=True`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2, axis=0, keepdims=True) + eps) * gamma


@mistake("no-keepdims", hint=2, message="""\
Your mean square drops the axis it reduces (no `keepdims=True`), so a `(T,)` array of per-vector
values broadcasts against the last axis of a `(T, D)` input: an error when T != D, and silently the
wrong divisors when T == D. Keep the reduced axis with size 1 so each vector is divided by its own
root mean square.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2, axis=-1) + eps) * gamma


@mistake("mean-absolute-value", hint=1, message="""\
You divide by the mean of the absolute values, `np.mean(np.abs(x))`, instead of the root of the mean
of the squares. Both measure a vector's size, but they are different measures: the mean square
weighs large entries more, and RMSNorm (like layer norm's variance) is defined with squares. Use
`np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / (np.mean(np.abs(x), axis=-1, keepdims=True) + eps) * gamma


@mistake("whole-array-mean-square", hint=1, message="""\
You take one mean square over the whole array (no `axis`), so every vector is divided by the same
number. RMSNorm works per vector: each vector along the last axis is divided by its own root mean
square, `np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2) + eps) * gamma


@mistake("square-of-mean", hint=2, message="""\
You square the mean, `np.mean(x) ** 2`, instead of taking the mean of the squares, `np.mean(x ** 2)`.
Positive and negative entries cancel in the mean, so the square of the mean can be near 0 for a large
vector. The mean square averages the squared entries: `np.mean(x ** 2, axis=-1, keepdims=True)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x, axis=-1, keepdims=True) ** 2 + eps) * gamma


@mistake("divides-by-std", hint=1, message="""\
You divide by the standard deviation (`np.std` or `np.var` of x, which subtract the mean inside)
instead of the root mean square. RMSNorm skips the mean on purpose: its statistic is the mean of the
squares of x itself, `np.mean(x ** 2, axis=-1, keepdims=True)`; the two differ whenever a vector's
mean is not 0.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.var(x, axis=-1, keepdims=True) + eps) * gamma


@mistake("no-eps", hint=2, message="""\
You divide by `np.sqrt(np.mean(x ** 2, ...))` without eps. An all-zero vector then divides 0 by 0,
which is NaN, and a vector of tiny entries is blown up to full size. eps is part of the formula:
divide by `np.sqrt(mean_square + eps)`, with the eps the caller passes.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True)) * gamma


@mistake("hardcoded-eps", hint=2, message="""\
You use a fixed eps (such as 1e-5 or 1e-6 written into the formula) instead of the `eps` argument, so a
caller who passes `eps=0.1` does not get it. Use the parameter: `np.sqrt(mean_square + eps)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + 1e-5) * gamma


@mistake("one-plus-gamma", hint=3, message="""\
You multiply by `1 + gamma`, the convention of some models (such as Gemma) that store the gain as an
offset from 1. Here `gamma` is the gain itself, as in LLaMA: multiply by it directly, `x_hat * gamma`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps) * (1.0 + gamma)


@mistake("multiplies-by-rms", hint=2, message="""\
You multiply x by the root mean square instead of dividing by it (perhaps thinking of `rsqrt`, which
is already 1 / sqrt). Large vectors then grow larger instead of being brought to a standard size.
Divide by `np.sqrt(mean_square + eps)`, or multiply by `1 / np.sqrt(mean_square + eps)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x * np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps) * gamma


@mistake("hardcoded-eps-1e-6", hint=2, message="""\
You use a fixed eps of 1e-6 (LLaMA's `rms_norm_eps`) instead of the `eps` argument, so the result is
off whenever eps matters: for tiny vectors, and when the caller passes another eps. Use the
parameter: `np.sqrt(mean_square + eps)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + 1e-6) * gamma


@mistake("eps-added-to-output", hint=2, message="""\
You add eps after the division, `x / np.sqrt(mean_square) + eps`, so it shifts every output by eps
instead of guarding the division: an all-zero vector still divides 0 by 0. eps belongs under the
square root, with the mean square: `x / np.sqrt(mean_square + eps)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return (x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True)) + eps) * gamma


@mistake("mean-square-over-len", hint=2, message="""\
You average the squares with `np.sum(x ** 2, axis=-1, ...) / len(x)` (or `/ x.shape[0]`). `len(x)`
counts the rows, the tokens, not the entries of each vector, so the "mean" is divided by the wrong
number. Divide by the vector length `x.shape[-1]`, or simply use
`np.mean(x ** 2, axis=-1, keepdims=True)`.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / np.sqrt(np.sum(x ** 2, axis=-1, keepdims=True) / len(x) + eps) * gamma
