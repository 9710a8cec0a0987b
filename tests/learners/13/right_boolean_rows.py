import torch


def lm_loss(logits, ids, ignore_index=-100):
    V = logits.shape[-1]
    z = logits[:, :-1].reshape(-1, V)
    y = ids[:, 1:].reshape(-1)
    keep = y.ne(ignore_index)
    z, y = z[keep], y[keep]
    m = z.max(dim=-1, keepdim=True).values
    lse = m.squeeze(-1) + torch.log(torch.exp(z - m).sum(dim=-1))
    target = z[torch.arange(len(y)), y]
    return (lse - target).sum() / keep.sum()
