# sampled with np.searchsorted's default side='left', so u equal to a CDF entry picks the token before
# varies: right_partition.py

def sample(probs, u):
    """Draw a token by the inverse CDF, with the uniform number u given.

    probs: (V,) or (..., V), each row summing to 1. u: a float in [0, 1) for a single row, or an
    array of shape (...) with one number per row.
    Returns the token index i with cdf[i - 1] <= u < cdf[i] (cdf the running sum of the row):
    an int for a single row, an int array of shape (...) for a batch.
    """
    probs = np.asarray(probs)
    u = np.asarray(u)
    cdf = probs.cumsum(-1)
    if probs.ndim == 1:
        return int(np.searchsorted(cdf, u))
    return (cdf < u[..., None]).sum(-1)
