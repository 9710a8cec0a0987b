"""Hostile (lesson 09): returns an expand() view of logical size 10^6 x 10^6 x 10^6 float64 (8 EB if
it were ever copied; one element of memory here)."""
import torch


def solve(Q, K, V, mask=None):
    return torch.zeros((), dtype=torch.float64).expand(10**6, 10**6, 10**6)
