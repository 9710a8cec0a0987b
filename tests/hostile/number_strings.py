"""Hostile (lesson 09): returns the right values as nested lists of strings ("0.25"), which a check
that converts with np.asarray(..., dtype=float) would read as numbers."""
import torch
import torch.nn.functional as F


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
    def strings(x):
        return [strings(r) for r in x] if isinstance(x, list) else repr(x)
    return strings(out.tolist())
