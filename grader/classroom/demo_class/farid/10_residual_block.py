import torch
import torch.nn.functional as F


def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    h = F.layer_norm(x + F.scaled_dot_product_attention(x, x, x, is_causal=True), x.shape[-1:])
    return (h + F.relu(h)).tolist()
