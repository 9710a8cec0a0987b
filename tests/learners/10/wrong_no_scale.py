# left out the 1/sqrt(width) scale in the hand-written attention
import torch
import torch.nn.functional as F



def solve(X):
    x = torch.tensor(X, dtype=torch.float64)
    T = x.shape[0]
    scores = x @ x.T
    scores = scores.masked_fill(~torch.tril(torch.ones(T, T, dtype=torch.bool)), float("-inf"))
    a = torch.softmax(scores, dim=-1) @ x
    h = F.layer_norm(x + a, (x.shape[-1],), eps=1e-5)
    return (h + F.relu(h)).tolist()
