# normalised each column (over time, dim 0) instead of each row
import torch
import torch.nn.functional as F



def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    s = x + F.scaled_dot_product_attention(x, x, x, is_causal=True)
    mu = s.mean(0, keepdim=True)
    var = s.var(0, keepdim=True, unbiased=False)
    h = (s - mu) / torch.sqrt(var + 1e-5)
    return (h + F.relu(h)).tolist()
