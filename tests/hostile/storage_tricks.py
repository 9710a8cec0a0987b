"""Hostile (lesson 09): returns a view that reaches past the end of its storage, so that whoever
reads it reads memory that is not the tensor's: as_strided beyond its bounds if torch allows it,
else a view whose storage was shrunk to nothing under it (its data freed)."""
import torch


def solve(Q, K, V, mask=None):
    small = torch.zeros(4, dtype=torch.float64)
    try:
        return small.as_strided((300, 300), (300, 1))
    except RuntimeError:
        pass
    big = torch.zeros(300, 300, dtype=torch.float64)
    view = big[:]
    big.untyped_storage().resize_(0)
    return view
