# did not check the length, relying on indexing to fail
import torch


def embed(ids, wte, wpe, start=0):
    T = ids.shape[1]
    pos = torch.arange(start, start + T)
    return wte[ids] + wpe[pos]
