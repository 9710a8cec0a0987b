# mistake: hand-written attention transposing K by reversing all its dims (like numpy .T), which reverses all axes and breaks batched inputs
"""Lesson 09: scaled dot-product attention with PyTorch, in float64, with an optional boolean mask."""
import torch
import torch.nn.functional as F


def solve(Q, K, V, mask=None):
    """Attention of the queries Q over the keys K and values V, computed in float64.

    Q: a nested list of shape [..., Tq, d]; K: [..., Tk, d]; V: [..., Tk, dv].
    mask: None, or a nested list of booleans broadcastable to [..., Tq, Tk];
          True means "this query may attend to this key". Every query may attend to at least one key.
    Returns a nested list of shape [..., Tq, dv]: softmax(Q K^T / sqrt(d), masked) V.
    """
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    s = q @ k.permute(*reversed(range(k.dim()))) / (q.shape[-1] ** 0.5)
    if mask is not None:
        s = s.masked_fill(~torch.tensor(mask, dtype=torch.bool), float('-inf'))
    return (torch.softmax(s, dim=-1) @ v).tolist()
