# returned a numpy integer for a single row instead of a Python int
# varies: right_sorted.py

def sample(probs, u):
    """Draw a token by the inverse CDF, with the uniform number u given.

    probs: (V,) or (..., V), each row summing to 1. u: a float in [0, 1) for a single row, or an
    array of shape (...) with one number per row.
    Returns the token index i with cdf[i - 1] <= u < cdf[i] (cdf the running sum of the row):
    an int for a single row, an int array of shape (...) for a batch.
    """
    cdf = np.cumsum(probs, axis=-1)
    idx = np.sum(cdf <= np.asarray(u)[..., None], axis=-1)
    return idx
