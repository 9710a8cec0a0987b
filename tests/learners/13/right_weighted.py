import torch


def lm_loss(logits, ids, ignore_index=-100):
    targets = ids[..., 1:]
    scores = logits[..., :-1, :]
    w = (targets != ignore_index).to(scores.dtype)
    idx = targets.masked_fill(targets == ignore_index, 0)
    log_probs = scores - torch.logsumexp(scores, -1, keepdim=True)
    nll = -torch.take_along_dim(log_probs, idx[..., None], dim=-1)[..., 0]
    return (nll * w).sum() / w.sum()
