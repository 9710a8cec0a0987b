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
    ### BEGIN SOLUTION
    # 0. Temperature 0 is greedy decoding: all the mass on the first largest logit
    if temperature == 0:
        best = np.argmax(logits, axis=-1)
        return (np.arange(logits.shape[-1]) == best[..., None]).astype(np.float64)
    # 1. Temperature divides the logits (not the probabilities)
    z = logits / temperature
    # 2. Top-k: compare every logit with the k-th largest of its row; ties with it stay
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        kth = np.sort(z, axis=-1)[..., -k, None]
        z = np.where(z >= kth, z, -np.inf)
    probs = softmax(z, axis=-1)
    # 3. Top-p on what top-k left: sort the probabilities from most to least likely and find the
    #    token whose share makes the running total reach p: the mass before it is still below p
    if top_p is not None:
        desc = -np.sort(-probs, axis=-1)
        before = np.cumsum(desc, axis=-1) - desc
        n_keep = np.sum(before < top_p, axis=-1, keepdims=True)
        cutoff = np.take_along_axis(desc, n_keep - 1, axis=-1)
        probs = softmax(np.where(probs >= cutoff, z, -np.inf), axis=-1)
    return probs
    ### END SOLUTION


def sample(probs, u):
    """Draw a token by the inverse CDF, with the uniform number u given.

    probs: (V,) or (..., V), each row summing to 1. u: a float in [0, 1) for a single row, or an
    array of shape (...) with one number per row.
    Returns the token index i with cdf[i - 1] <= u < cdf[i] (cdf the running sum of the row):
    an int for a single row, an int array of shape (...) for a batch.
    """
    ### BEGIN SOLUTION
    # 1. The running total of each row (along the vocabulary axis only)
    cdf = np.cumsum(probs, axis=-1)
    # 2. The chosen token is the number of CDF entries at or below u: the first entry above u
    index = np.sum(cdf <= np.asarray(u)[..., None], axis=-1)
    return int(index) if index.ndim == 0 else index
    ### END SOLUTION
