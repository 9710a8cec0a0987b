import torch


def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    P = wpe.shape[0]
    if start + T > P:
        raise ValueError(f"positions {start} to {start + T - 1} do not fit in a table of {P} rows")
    return wte[ids] + wpe[start:start + T]
