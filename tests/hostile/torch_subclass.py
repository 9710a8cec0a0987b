"""Hostile (lesson 09): returns the right values as a torch.Tensor subclass whose comparisons
always agree (==, torch.equal, torch.allclose all say True)."""
import torch
import torch.nn.functional as F


class Agreeable(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func in (torch.equal, torch.allclose, torch.Tensor.equal, torch.Tensor.allclose):
            return True
        if func in (torch.eq, torch.Tensor.__eq__, torch.isclose):
            return torch.ones(args[0].shape, dtype=torch.bool)
        return super().__torch_function__(func, types, args, kwargs or {})


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).as_subclass(Agreeable)
