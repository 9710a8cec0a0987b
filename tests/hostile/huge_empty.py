"""Hostile (lesson 09): allocates a 100 GB tensor with torch.empty, then fills it."""
import torch


def solve(Q, K, V, mask=None):
    big = torch.empty(100 * 2**30 // 8, dtype=torch.float64)
    big.fill_(1.0)
    return big[:1].tolist()
