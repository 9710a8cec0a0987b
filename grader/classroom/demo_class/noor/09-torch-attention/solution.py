import torch
import torch.nn.functional as F


def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    if mask is not None:
        mask = torch.tensor(mask) == False     # True = hide
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask).tolist()
