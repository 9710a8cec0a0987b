import torch


import torch.nn.functional as F


def embed(ids, wte, wpe, start=0):
    T = ids.size(1)
    if start + T > wpe.size(0):
        raise ValueError("sequence of %d tokens from position %d exceeds %d positions" % (T, start, wpe.size(0)))
    pos = torch.arange(start, start + T)
    return F.embedding(ids, wte) + F.embedding(pos, wpe).unsqueeze(0)
