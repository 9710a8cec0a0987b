# right: top-k via np.partition, top-p via a sorted-probability threshold found with take_along_axis; sample with argmax of cdf > u
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
    x = np.array(logits, dtype=np.float64)
    if temperature == 0:
        return (np.arange(x.shape[-1]) == np.argmax(x, axis=-1)[..., None]).astype(np.float64)
    x = x / temperature
    V = x.shape[-1]
    if top_k is not None:
        k = min(top_k, V)
        thresh = np.partition(x, V - k, axis=-1)[..., V - k][..., None]
        x = np.where(x < thresh, -np.inf, x)
    if top_p is not None:
        probs = softmax(x)
        desc = np.flip(np.sort(probs, axis=-1), axis=-1)
        mass_before = np.concatenate([np.zeros(desc.shape[:-1] + (1,)), np.cumsum(desc, axis=-1)[..., :-1]], axis=-1)
        n_keep = np.sum(mass_before < top_p, axis=-1, keepdims=True)
        cut = np.take_along_axis(desc, n_keep - 1, axis=-1)
        x = np.where(probs < cut, -np.inf, x)
    return softmax(x)


def sample(probs, u):
    """Draw a token by the inverse CDF, with the uniform number u given.

    probs: (V,) or (..., V), each row summing to 1. u: a float in [0, 1) for a single row, or an
    array of shape (...) with one number per row.
    Returns the token index i with cdf[i - 1] <= u < cdf[i] (cdf the running sum of the row):
    an int for a single row, an int array of shape (...) for a batch.
    """
    p = np.asarray(probs, dtype=np.float64)
    cdf = np.cumsum(p, axis=-1)
    uu = np.asarray(u, dtype=np.float64)[..., None]
    tok = np.argmax(cdf > uu, axis=-1)
    return int(tok) if p.ndim == 1 else tok
