# compared the targets with -100 instead of ignore_index
import torch


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :]
    y = ids[:, 1:]
    keep = y != -100
    safe = torch.where(keep, y, torch.zeros_like(y))
    nll = torch.logsumexp(z, -1) - z.gather(-1, safe[..., None])[..., 0]
    return nll[keep].mean()
