"""Known mistakes for lesson 05 (layer normalization)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("unbiased-variance", hint=2, message="""\
You divide the squared deviations by D - 1 (the sample variance, `ddof=1`), but layer norm uses the
population variance: divide by D. The D - 1 correction estimates the variance of a larger population
from a sample; here there is no larger population, just the D numbers of one vector. Use `np.mean` of
the squared centred values, or `np.var` with its default `ddof=0`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@mistake("eps-on-std", hint=2, message="""\
You add eps to the standard deviation, `std + eps`, instead of to the variance inside the square
root, `sqrt(var + eps)`. For vectors of ordinary size the two are nearly equal, but for tiny inputs
(a variance below eps) they differ completely, and every framework's layer norm uses
`sqrt(var + eps)`. Put eps under the square root.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    std = np.std(x, axis=-1, keepdims=True)
    return (x - mean) / (std + eps) * gamma + beta


@mistake("no-sqrt", hint=2, message="""\
You divide the centred values by the variance instead of by its square root, the standard
deviation. The variance is in squared units: dividing by it does not bring the vectors to a standard
size (vectors twice as large come out half as large). Divide by `np.sqrt(var + eps)`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / (var + eps) * gamma + beta


@mistake("wrong-axis", hint=1, message="""\
Your statistics are taken along the first axis, across tokens (or across the batch), rather than
along the last axis, within each vector. That is batch norm, a different layer. Layer norm gives every
feature vector its own mean and variance: reduce along `axis=-1` with `keepdims=True`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=0, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=0, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@mistake("no-keepdims", hint=2, message="""\
Your mean and variance drop the axis they reduce (no `keepdims=True`), so a `(T,)` array of
per-vector means broadcasts against the last axis of a `(T, D)` input: it raises an error when
T != D and quietly subtracts the wrong numbers when T == D. Keep the reduced axis, with size 1, so
each vector is centred and scaled by its own statistics.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1)
    var = np.mean((x - mean) ** 2, axis=-1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@mistake("gamma-beta-swapped", hint=3, message="""\
You multiply by `beta` and add `gamma`: the two parameters are swapped. `gamma` is the gain (it
multiplies the normalised values, and starts at 1 in a fresh model) and `beta` is the shift (it is
added, and starts at 0). The formula is `x_hat * gamma + beta`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * beta + gamma


@mistake("forgot-beta", hint=3, message="""\
You scale the normalised values by `gamma` but never add `beta`. The shift is half of layer norm's
learned affine step: without it every output vector is forced to have mean 0 (times gamma), which the
model may not want. Return `x_hat * gamma + beta`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma


@mistake("one-pass-variance", hint=2, message="""\
You compute the variance as `mean(x**2) - mean(x)**2`. It is right on paper, but when the entries sit
far from zero (around 1e6, say) both terms are huge and nearly equal, and their difference is mostly
rounding error: the variance can even come out negative. Centre first, `c = x - mean`, then average
`c**2`: the numbers you square are then small.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(x ** 2, axis=-1, keepdims=True) - mean ** 2
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@mistake("precedence", hint=2, message="""\
You write `x - mean / np.sqrt(var + eps)` without parentheses. Division binds tighter than
subtraction, so only the mean is divided and x is not scaled at all. Put the centred values in
parentheses: `(x - mean) / np.sqrt(var + eps)`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean / np.sqrt(var + eps)) * gamma + beta


@mistake("no-eps", hint=2, message="""\
You divide by `np.sqrt(var)` without eps. A vector whose entries are all equal has variance 0, and
0 / 0 is NaN; a vector of tiny entries is blown up to full size. eps is part of layer norm's formula:
divide by `np.sqrt(var + eps)`, with the eps the caller passes.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var) * gamma + beta


@mistake("hardcoded-eps", hint=2, message="""\
You use a fixed eps (such as 1e-5 written into the formula) instead of the `eps` argument, so a caller
who passes `eps=0.1` gets the default anyway. Use the parameter: `np.sqrt(var + eps)`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * gamma + beta


@mistake("variance-not-centred", hint=2, message="""\
Your variance is the mean of x**2, the squares of the raw values, not of the centred values. That
is the mean square (RMSNorm's statistic), and it equals the variance only when the mean is 0. The
variance is the mean of `(x - mean) ** 2` along the last axis.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(x ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@mistake("not-centred", hint=2, message="""\
You divide x by its standard deviation but never subtract the mean, so the output vectors keep
their mean (scaled). Layer norm centres each vector first: `(x - mean) / np.sqrt(var + eps)`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return x / np.sqrt(var + eps) * gamma + beta


@mistake("whole-array-stats", hint=1, message="""\
You take one mean and one variance over the whole array (no `axis`), so every vector is shifted and
scaled by the same numbers. Layer norm works per vector: each vector along the last axis gets its own
statistics, `np.mean(x, axis=-1, keepdims=True)` and the same for the variance.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x)
    var = np.mean((x - mean) ** 2)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@mistake("float32", hint=2, message="""\
You compute in float32 (for example with `x.astype(np.float32)`), which keeps only about 7 significant
digits: the results differ from the float64 answer in the 7th digit, and for vectors far from zero
the centred values lose most of their digits. Keep the input's float64 throughout.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    x = x.astype(np.float32)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@mistake("eps-added-to-output", hint=2, message="""\
You add eps after the division, `(x - mean) / np.sqrt(var) + eps`, so it shifts every output by
eps instead of guarding the division: a constant vector still divides 0 by 0. eps belongs under the
square root, with the variance: `(x - mean) / np.sqrt(var + eps)`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return ((x - mean) / np.sqrt(var) + eps) * gamma + beta


@mistake("never-centred", hint=2, message="""\
You never subtract the mean: you divide x itself by the root of its mean square, which is RMSNorm,
not layer norm. Layer norm centres each vector first, `c = x - mean`, and both the variance and the
output are computed from the centred values: `c / sqrt(mean(c ** 2) + eps)`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    var = np.mean(x ** 2, axis=-1, keepdims=True)
    return x / np.sqrt(var + eps) * gamma + beta


@mistake("not-scaled", hint=2, message="""\
You centre each vector but never divide by its standard deviation, so the output keeps the input's
spread. Layer norm scales every centred vector to unit variance: `c / np.sqrt(var + eps)`, then
applies gamma and beta.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    return (x - np.mean(x, axis=-1, keepdims=True)) * gamma + beta


@mistake("forgot-gamma", hint=3, message="""\
You add beta but never multiply by gamma, the learned gain: your output is the normalised vector
plus the shift. Both are applied, one per feature: `x_hat * gamma + beta`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) + beta


@mistake("variance-over-all-axes", hint=1, message="""\
Your mean is taken per vector, but your variance over the whole array (`np.mean(c ** 2)` without
`axis`), so every vector is divided by one shared spread. Both statistics belong to each vector
alone: `np.mean(c ** 2, axis=-1, keepdims=True)`.""")
def layer_norm(x, gamma, beta, eps=1e-5):
    c = x - np.mean(x, axis=-1, keepdims=True)
    return c / np.sqrt(np.mean(c ** 2, keepdims=True) + eps) * gamma + beta
