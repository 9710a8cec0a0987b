# built the tensors with the default dtype (float32)
import torch
import torch.nn.functional as F



def solve(Q, K, V, mask=None):
    q, k, v = torch.tensor(Q, dtype=torch.float), torch.tensor(K, dtype=torch.float), torch.tensor(V, dtype=torch.float)
    m = None if mask is None else torch.tensor(mask)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
