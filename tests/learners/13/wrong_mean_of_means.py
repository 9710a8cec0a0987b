# averaged each sequence first, then averaged the sequences
import torch


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :]
    y = ids[:, 1:]
    keep = (y != ignore_index).double()
    safe = torch.where(y != ignore_index, y, torch.zeros_like(y))
    nll = torch.logsumexp(z, -1) - z.gather(-1, safe[..., None])[..., 0]
    per_seq = (nll * keep).sum(1) / keep.sum(1)
    return per_seq.mean()
