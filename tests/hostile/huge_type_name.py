"""Hostile (lesson 09): returns the right values as a torch.Tensor subclass whose name is 50 MB
long, so that the grader's own "unsupported type ..." message is too large to send."""
import torch
import torch.nn.functional as F


class Unspeakable(torch.Tensor):
    pass


Unspeakable.__qualname__ = "U" * 50_000_000


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).as_subclass(Unspeakable)
