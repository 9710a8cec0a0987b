# used log base 2 (bits per token) instead of the natural log
import torch


import math


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :]
    y = ids[:, 1:]
    keep = y != ignore_index
    safe = torch.where(keep, y, torch.zeros_like(y))
    nll = torch.logsumexp(z, -1) - z.gather(-1, safe[..., None])[..., 0]
    return nll[keep].mean() / math.log(2)
