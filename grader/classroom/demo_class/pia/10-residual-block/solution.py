import torch
import torch.nn.functional as F


def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    attended = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    h = F.layer_norm(attended, (x.shape[-1],), eps=1e-5)
    return (h + torch.relu(h)).tolist()
