"""Hostile (lesson 09): returns zeros as a tensor subclass that poses as a plain torch.Tensor
(its __class__ says torch.Tensor, so isinstance and x.__class__ checks agree)."""
import torch


class Plain(torch.Tensor):
    @property
    def __class__(self):
        return torch.Tensor


def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    shape = (*q.shape[:-1], v.shape[-1])
    return torch.zeros(shape, dtype=torch.float64).as_subclass(Plain)
