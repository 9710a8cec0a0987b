# added eps to the standard deviation instead of inside the square root in a hand-written layer norm
import torch
import torch.nn.functional as F


def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    s = x + F.scaled_dot_product_attention(x, x, x, is_causal=True)
    mu = s.mean(-1, keepdim=True)
    sd = s.std(-1, keepdim=True, unbiased=False)
    h = (s - mu) / (sd + 1e-5)
    return (h + F.relu(h)).tolist()
