"""Hostile (lesson 09): returns the right values as a tensor that requires grad, with a hook on it
and on its grad function that kill the process if anything ever differentiates or reads it."""
import os

import torch
import torch.nn.functional as F


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
    out.register_hook(lambda grad: os._exit(0))
    out.grad_fn.register_hook(lambda *a: os._exit(0))
    return out
