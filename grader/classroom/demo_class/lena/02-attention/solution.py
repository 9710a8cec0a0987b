import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis` (lesson 01): stable for huge logits and rows holding -inf."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)

import torch
import torch.nn.functional as F


def attention(q, k, v, mask=None):
    m = None if mask is None else torch.as_tensor(np.broadcast_to(mask, q.shape[:-1] + k.shape[-2:]))
    out = F.scaled_dot_product_attention(torch.as_tensor(q), torch.as_tensor(k), torch.as_tensor(v),
                                         attn_mask=m)
    return out.numpy()
