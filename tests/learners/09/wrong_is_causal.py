# left is_causal=True on from the training code, which ignores the given mask
import torch
import torch.nn.functional as F



def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    if mask is None:
        return F.scaled_dot_product_attention(q, k, v, is_causal=True).tolist()
    m = torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
