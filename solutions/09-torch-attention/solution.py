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
    ### BEGIN SOLUTION
    # 1. Turn the nested lists into float64 tensors
    q = torch.tensor(Q, dtype=torch.float64)
    k = torch.tensor(K, dtype=torch.float64)
    v = torch.tensor(V, dtype=torch.float64)
    # 2. A given mask becomes a boolean tensor: True keeps a score, False hides it
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    # 3. One call scores, scales, masks, applies the softmax and averages the values
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
    # 4. Hand back plain nested lists
    return out.tolist()
    ### END SOLUTION
