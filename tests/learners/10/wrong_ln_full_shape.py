# mistake: F.layer_norm with normalized_shape=x.shape, normalising over the whole (T, D) table instead of each row
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
    a = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    h = F.layer_norm(x + a, x.shape, eps=1e-5)
    return (h + F.relu(h)).tolist()
