# cast the logits to float32 (.float()) as in mixed-precision code
import torch


def lm_loss(logits, ids, ignore_index=-100):
    z = logits[:, :-1, :].float()
    y = ids[:, 1:]
    keep = y != ignore_index
    safe = torch.where(keep, y, torch.zeros_like(y))
    nll = torch.logsumexp(z, -1) - z.gather(-1, safe[..., None])[..., 0]
    return nll[keep].mean()
