"""Hostile (lesson 09): at import, starts 8 processes with torch.multiprocessing (spawn) that sleep
forever, and 8 more forked ones, then answers right (it should pass, leaving nothing behind)."""
import time

import torch
import torch.multiprocessing as mp
import torch.nn.functional as F


def linger(rank):
    time.sleep(10_000)


try:
    mp.spawn(linger, nprocs=8, join=False)
except Exception:
    pass
for _ in range(8):
    try:
        mp.get_context("fork").Process(target=linger, args=(0,), daemon=False).start()
    except Exception:
        break


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    m = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m).tolist()
