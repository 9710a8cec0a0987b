import torch
import torch.nn.functional as F


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(t, dtype=torch.float64) for t in (Q, K, V))
    m = torch.tensor(mask, dtype=torch.bool) if mask is not None else None
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
