# right: nn.LayerNorm without affine params and an explicit boolean mask to SDPA
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
    mask = torch.arange(T)[None, :] <= torch.arange(T)[:, None]
    a = F.scaled_dot_product_attention(x.unsqueeze(0), x.unsqueeze(0), x.unsqueeze(0), attn_mask=mask)[0]
    ln = torch.nn.LayerNorm(D, eps=1e-5, elementwise_affine=False, dtype=torch.float64)
    h = ln(x + a)
    return torch.where(h > 0, 2 * h, h).tolist()
