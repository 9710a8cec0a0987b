"""Hostile (lesson 09): returns a tensor of the right shape on the meta device (no values at all)."""
import torch


def solve(Q, K, V, mask=None):
    q, v = torch.tensor(Q, dtype=torch.float64), torch.tensor(V, dtype=torch.float64)
    return torch.empty((*q.shape[:-1], v.shape[-1]), dtype=torch.float64, device="meta")
