# mistake: builds the causal mask with triu (True above the diagonal) and passes it as "may attend"
"""Lesson 10: one simplified transformer block in PyTorch (attention, residual, layer norm, ReLU)."""
import torch
import torch.nn.functional as F


def solve(X):
    """One weight-free transformer block, computed in float64.

    X: a nested list of shape [time, width], one row per token.
    Returns a nested list of the same shape: h + ReLU(h), where
    h = layer_norm(X + causal_attention(X, X, X)) over each row, with eps=1e-5.
    """
    x = torch.tensor(X, dtype=torch.float64)
    T = x.size(0)
    m = torch.triu(torch.ones(T, T, dtype=torch.bool))
    a = F.scaled_dot_product_attention(x, x, x, attn_mask=m)
    h = F.layer_norm(x + a, (x.size(1),), eps=1e-5)
    return (h + F.relu(h)).tolist()
