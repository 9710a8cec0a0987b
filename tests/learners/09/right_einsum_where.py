import torch
import torch.nn.functional as F



def solve(Q, K, V, mask=None):
    q = torch.DoubleTensor(Q)
    k = torch.DoubleTensor(K)
    v = torch.DoubleTensor(V)
    s = torch.einsum("...qd,...kd->...qk", q, k) * q.size(-1) ** -0.5
    if mask is not None:
        m = torch.tensor(mask).bool()
        s = torch.where(m, s, torch.tensor(float("-inf"), dtype=torch.float64))
    w = F.softmax(s, dim=-1)
    return torch.einsum("...qk,...kv->...qv", w, v).tolist()
