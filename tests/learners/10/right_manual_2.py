# right: attention and layer norm written out by hand with a tril mask and population variance
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
    T, D = x.shape
    scores = (x @ x.transpose(0, 1)) / D ** 0.5
    allowed = torch.tril(torch.ones(T, T, dtype=torch.bool))
    scores = scores.masked_fill(~allowed, float("-inf"))
    a = torch.softmax(scores, dim=1) @ x
    y = x + a
    mu = y.mean(dim=1, keepdim=True)
    var = ((y - mu) ** 2).mean(dim=1, keepdim=True)
    h = (y - mu) * torch.rsqrt(var + 1e-5)
    return (h + torch.clamp(h, min=0.0)).tolist()
