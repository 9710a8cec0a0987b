import torch


def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if T + start > len(wpe):
        raise ValueError(f"start + T = {start + T} is more than the {len(wpe)} positions")
    tok = torch.index_select(wte, 0, ids.reshape(-1)).reshape(B, T, -1)
    pos = wpe.narrow(0, start, T)
    return tok + pos[None, :, :]
