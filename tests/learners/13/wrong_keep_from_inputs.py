# built the keep-mask from ids[:, :-1] (the inputs) instead of ids[:, 1:] (the targets)
import torch


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :]
    y = ids[:, 1:]
    keep = ids[:, :-1] != ignore_index
    safe = torch.where(y != ignore_index, y, torch.zeros_like(y))
    nll = torch.logsumexp(z, -1) - z.gather(-1, safe[..., None])[..., 0]
    return nll[keep].mean()
