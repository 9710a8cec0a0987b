# inverted the mask, thinking True means hide (as in key_padding_mask)
import torch
import torch.nn.functional as F



def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    m = None if mask is None else ~torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
