# right: attention written out with torch ops and masked_fill of -inf
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
    q = torch.as_tensor(Q, dtype=torch.float64)
    k = torch.as_tensor(K, dtype=torch.float64)
    v = torch.as_tensor(V, dtype=torch.float64)
    s = torch.matmul(q, k.transpose(-2, -1)) / torch.sqrt(torch.tensor(float(q.shape[-1]), dtype=torch.float64))
    if mask is not None:
        s = s.masked_fill(torch.logical_not(torch.as_tensor(mask)), float("-inf"))
    return torch.matmul(s.softmax(dim=-1), v).tolist()
