import torch


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :]
    y = ids[:, 1:]
    keep = y != ignore_index
    safe = torch.where(keep, y, torch.zeros_like(y))
    picked = z.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    nll = torch.logsumexp(z, dim=-1) - picked
    return nll[keep].mean()
