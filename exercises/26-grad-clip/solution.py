"""Lesson 26: gradient clipping by global norm, as torch.nn.utils.clip_grad_norm_ does it."""
import math

import torch


def global_norm(grads, norm_type=2.0):
    """The p-norm of all the gradients together, as if they were one long vector.

    grads: a dict of float64 tensors (any shapes). norm_type: p >= 1, or math.inf for the largest
    absolute entry. Returns a 0-d float64 tensor: (sum over every entry of |g|^p)^(1/p), computed
    as the p-norm of the tensors' own p-norms.
    """
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def clip_grad_norm(grads, max_norm, norm_type=2.0):
    """Scale every gradient by one factor so that their global norm is at most max_norm.

    With total = global_norm(grads, norm_type), every gradient is multiplied by
        min(1, max_norm / (total + 1e-6)).
    Returns (clipped, total): a new dict of new tensors, and the norm BEFORE clipping (a 0-d
    tensor), as torch.nn.utils.clip_grad_norm_ returns it. grads stays unchanged.
    """
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")
