"""Lesson 10: one simplified transformer block in PyTorch (attention, residual, layer norm, ReLU)."""
import torch
import torch.nn.functional as F


def solve(X):
    """One weight-free transformer block, computed in float64.

    X: a nested list of shape [time, width], one row per token.
    Returns a nested list of the same shape: h + ReLU(h), where
    h = layer_norm(X + causal_attention(X, X, X)) over each row, with eps=1e-5.
    """
    ### BEGIN SOLUTION
    x = torch.tensor(X, dtype=torch.float64)
    # 1. x as queries, keys and values; the flag masks the later rows
    attended = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    # 2. Post-norm: add first, then normalize each row over its width
    h = F.layer_norm(x + attended, (x.shape[-1],), eps=1e-5)
    # 3. A bare ReLU where the MLP would be, with h added back around it
    return (h + torch.relu(h)).tolist()
    ### END SOLUTION
