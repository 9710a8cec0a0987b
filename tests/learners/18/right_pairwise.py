# right: greedy via a max comparison and cumulative "first max" trick, top-k by ranking with counts, searchsorted side='right' per row via vectorize
"""Lesson 18: turning next-token logits into probabilities (temperature, top-k, top-p), and sampling."""
import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis` (lesson 01): stable for huge logits and rows holding -inf."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    """The probabilities to sample the next token from.

    logits: float64 array of shape (..., V), one row of V scores per position.
    temperature: a float >= 0; 0 means greedy: one-hot on the first maximal logit.
    top_k: None, or an int >= 1: keep the tokens whose logit is at least the k-th largest
        (ties with the k-th are kept; a k above V keeps everything).
    top_p: None, or a float in (0, 1]: after top-k, keep the smallest set of most probable tokens
        whose probability reaches top_p, i.e. every token at least as probable as the one whose
        share makes the running total reach top_p (ties with it are kept).
    Applied in this order: temperature, top-k, top-p. Returns (..., V): the removed tokens get
    probability exactly 0 and every row sums to 1.
    """
    z = np.asarray(logits, dtype=np.float64)
    if temperature == 0:
        is_max = z == z.max(axis=-1, keepdims=True)
        first = is_max & (np.cumsum(is_max, axis=-1) == 1)
        return first.astype(np.float64)
    z = z / temperature
    if top_k is not None:
        # a token survives when fewer than k tokens are strictly larger than it
        larger = np.sum(z[..., None, :] > z[..., :, None], axis=-1)
        z = np.where(larger < top_k, z, -np.inf)
    if top_p is not None:
        p = softmax(z)
        # mass strictly more probable than each token, plus the mass of its equals placed before it
        before = np.sum(np.where(p[..., None, :] > p[..., :, None], p[..., None, :], 0.0), axis=-1)
        keep_rank = before < top_p
        cut = np.min(np.where(keep_rank, p, np.inf), axis=-1, keepdims=True)
        z = np.where(p >= cut, z, -np.inf)
    return softmax(z)


def sample(probs, u):
    """Draw a token by the inverse CDF, with the uniform number u given.

    probs: (V,) or (..., V), each row summing to 1. u: a float in [0, 1) for a single row, or an
    array of shape (...) with one number per row.
    Returns the token index i with cdf[i - 1] <= u < cdf[i] (cdf the running sum of the row):
    an int for a single row, an int array of shape (...) for a batch.
    """
    cdf = np.cumsum(probs, axis=-1)
    if cdf.ndim == 1:
        return int(np.searchsorted(cdf, u, side="right"))
    return (cdf <= np.asarray(u)[..., None]).sum(axis=-1)
