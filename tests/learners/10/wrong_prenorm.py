# normalised before attention (pre-norm) instead of after the residual
import torch
import torch.nn.functional as F



def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    n = F.layer_norm(x, (x.shape[-1],), eps=1e-5)
    h = x + F.scaled_dot_product_attention(n, n, n, is_causal=True)
    return (h + F.relu(h)).tolist()
