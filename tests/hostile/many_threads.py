"""Hostile (lesson 09): asks torch for 64 intra-op and 64 inter-op threads at import, then computes
the right answer with large parallel operations (honest values: it should simply pass)."""
import torch
import torch.nn.functional as F

torch.set_num_threads(64)
try:
    torch.set_num_interop_threads(64)
except RuntimeError:
    pass
BUSY = torch.ones(512, 512, dtype=torch.float64)


def solve(Q, K, V, mask=None):
    (BUSY @ BUSY).sum()          # big enough for torch to go parallel
    torch.jit.fork(torch.mm, BUSY, BUSY).wait()
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
