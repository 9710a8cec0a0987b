# transposed K with .T, which reverses every axis of a batched tensor
import torch
import torch.nn.functional as F



import math


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(t, dtype=torch.float64) for t in (Q, K, V))
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~torch.tensor(mask, dtype=torch.bool), float("-inf"))
    return torch.softmax(scores, dim=-1).matmul(v).tolist()
