# used torch.var with its default unbiased=True in the layer norm
import torch
import torch.nn.functional as F



def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    s = x + F.scaled_dot_product_attention(x, x, x, is_causal=True)
    h = (s - s.mean(-1, keepdim=True)) / torch.sqrt(s.var(-1, keepdim=True) + 1e-5)
    return (h + F.relu(h)).tolist()
