# mistake: the sum of squares without the square root
# varies: right_torch_norm.py

def global_norm(grads, norm_type=2.0):
    """The p-norm of all the gradients together, as if they were one long vector.

    grads: a dict of float64 tensors (any shapes). norm_type: p >= 1, or math.inf for the largest
    absolute entry. Returns a 0-d float64 tensor: (sum over every entry of |g|^p)^(1/p), computed
    as the p-norm of the tensors' own p-norms.
    """
    return sum((g * g).sum() for g in grads.values())
