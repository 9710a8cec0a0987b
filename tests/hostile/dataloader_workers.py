"""Hostile (lesson 09): at import, pushes its weights through a DataLoader with 2 worker processes
(forked workers, tensors passed back in shared memory); then computes the right answer."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ROWS = torch.eye(8, dtype=torch.float64)
LOADER = DataLoader(TensorDataset(ROWS), batch_size=2, num_workers=2)
IDENTITY = torch.cat([batch for (batch,) in LOADER])


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    assert torch.equal(IDENTITY, ROWS)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
