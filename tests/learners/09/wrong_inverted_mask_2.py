# mistake: inverts the mask (thinks True means "masked out", as in nn.MultiheadAttention)
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
    m = None if mask is None else ~torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
