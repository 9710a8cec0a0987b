# took log(softmax(...)), which gives -inf when a probability underflows
import torch


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :]
    y = ids[:, 1:]
    keep = y != ignore_index
    safe = torch.where(keep, y, torch.zeros_like(y))
    logp = torch.log(torch.softmax(z, dim=-1))
    nll = -logp.gather(-1, safe[..., None])[..., 0]
    return nll[keep].mean()
