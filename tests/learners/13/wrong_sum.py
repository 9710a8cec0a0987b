# returned the sum over tokens instead of the mean
import torch


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :]
    y = ids[:, 1:]
    keep = y != ignore_index
    safe = torch.where(keep, y, torch.zeros_like(y))
    nll = torch.logsumexp(z, -1) - z.gather(-1, safe[..., None])[..., 0]
    return nll[keep].sum()
