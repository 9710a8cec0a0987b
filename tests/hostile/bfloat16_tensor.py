"""Hostile (lesson 09): returns the right answer as a bfloat16 tensor."""
import torch
import torch.nn.functional as F


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).to(torch.bfloat16)
