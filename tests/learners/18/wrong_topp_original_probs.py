# mistake: top-p computed on the probabilities before top-k (softmax of the tempered logits, not renormalised after top-k)
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
    logits = np.asarray(logits, dtype=np.float64)
    if temperature == 0:
        idx = np.argmax(logits, axis=-1)
        out = np.zeros_like(logits)
        np.put_along_axis(out, idx[..., None], 1.0, axis=-1)
        return out
    z = logits / temperature
    V = z.shape[-1]
    p0 = softmax(z, axis=-1)
    if top_k is not None and top_k < V:
        kth = -np.sort(-z, axis=-1)[..., top_k - 1:top_k]
        z = np.where(z >= kth, z, -np.inf)
    if top_p is not None:
        p = np.where(np.isfinite(z), p0, 0.0)
        ps = -np.sort(-p, axis=-1)
        before = np.cumsum(ps, axis=-1) - ps
        kept = before < top_p
        cutoff = np.min(np.where(kept, ps, np.inf), axis=-1, keepdims=True)
        z = np.where(p >= cutoff, z, -np.inf)
    return softmax(z, axis=-1)


def sample(probs, u):
    """Draw a token by the inverse CDF, with the uniform number u given.

    probs: (V,) or (..., V), each row summing to 1. u: a float in [0, 1) for a single row, or an
    array of shape (...) with one number per row.
    Returns the token index i with cdf[i - 1] <= u < cdf[i] (cdf the running sum of the row):
    an int for a single row, an int array of shape (...) for a batch.
    """
    cdf = np.cumsum(probs, axis=-1)
    u = np.asarray(u)
    idx = np.sum(cdf <= u[..., None], axis=-1)
    if idx.ndim == 0:
        return int(idx)
    return idx
