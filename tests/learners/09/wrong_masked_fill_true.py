# called masked_fill with the mask itself, which fills where mask is True
import torch
import torch.nn.functional as F



import math


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(t, dtype=torch.float64) for t in (Q, K, V))
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(torch.tensor(mask), float("-inf"))
    return torch.softmax(scores, dim=-1).matmul(v).tolist()
