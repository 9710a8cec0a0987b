# mistake: forgets is_causal, so every token attends to the future too
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
    a = F.scaled_dot_product_attention(x, x, x)
    h = F.layer_norm(x + a, x.shape[-1:], eps=1e-5)
    return (h + F.relu(h)).tolist()
