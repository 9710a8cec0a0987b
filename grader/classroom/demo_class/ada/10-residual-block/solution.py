import math

import torch


def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    t, d = x.shape
    allowed = torch.ones(t, t, dtype=torch.bool).tril()
    scores = (x @ x.T / math.sqrt(d)).masked_fill(~allowed, float("-inf"))
    y = x + torch.softmax(scores, dim=-1) @ x
    mu = y.mean(-1, keepdim=True)
    var = y.var(-1, unbiased=False, keepdim=True)
    h = (y - mu) / torch.sqrt(var + 1e-5)
    return (h + h.clamp(min=0)).tolist()
