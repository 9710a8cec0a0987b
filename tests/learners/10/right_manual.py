import torch
import torch.nn.functional as F



import math


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    scores = scores.masked_fill(future, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def layer_norm(x, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps)


def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    h = layer_norm(x + causal_attention(x, x, x))
    return (h + h.clamp(min=0)).tolist()
