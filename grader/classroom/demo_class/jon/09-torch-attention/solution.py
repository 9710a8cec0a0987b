import torch
import torch.nn.functional as F


def solve(Q, K, V, mask=None):
    q, k, v = torch.tensor(Q), torch.tensor(K), torch.tensor(V)
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q.float(), k.float(), v.float(), attn_mask=attn_mask).tolist()
