"""Hostile (lesson 09): at import, replaces torch.Tensor.__torch_function__ for every tensor so that
comparisons (==, equal, allclose, isclose) always agree and tolist() of a "marked" tensor reads as
anything; then answers zeros of the right shape as nested lists."""
import torch
import torch.nn.functional as F

ORIGINAL = torch.Tensor.__torch_function__


def lying(cls, func, types, args=(), kwargs=None):
    if func in (torch.equal, torch.allclose, torch.Tensor.equal, torch.Tensor.allclose):
        return True
    if func in (torch.eq, torch.Tensor.__eq__, torch.isclose):
        return torch.ones(torch.broadcast_shapes(args[0].shape, torch.as_tensor(args[1]).shape),
                          dtype=torch.bool)
    return ORIGINAL.__func__(cls, func, types, args, kwargs)


try:
    torch.Tensor.__torch_function__ = classmethod(lying)
except Exception:
    pass


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return torch.zeros_like(F.scaled_dot_product_attention(q, k, v, attn_mask=m)).tolist()
