"""Hostile (lesson 09): torch.compile()s its function at import (inductor: a C++ compiler and
worker processes) and scripts another with torch.jit; the values are right."""
import torch
import torch.nn.functional as F


@torch.jit.script
def scale(x: torch.Tensor) -> torch.Tensor:
    return x * 1.0


def attention(q, k, v, m):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)


try:
    compiled = torch.compile(attention)
    compiled(torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 3, dtype=torch.float64),
             torch.ones(2, 3, dtype=torch.float64), None)
except Exception:
    compiled = attention


def solve(Q, K, V, mask=None):
    q, k, v = (scale(torch.tensor(a, dtype=torch.float64)) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return compiled(q, k, v, m).tolist()
