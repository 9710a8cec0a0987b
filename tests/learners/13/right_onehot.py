# right: one-hot targets and a weighted sum, with torch.where for ignored positions
"""Lesson 13: the language-modelling loss, mean next-token cross-entropy with an ignore index."""
import torch


def lm_loss(logits, ids, ignore_index=-100):
    """Mean cross-entropy of predicting each next token, skipping targets equal to ignore_index.

    logits: a float64 tensor of shape (B, T, V): logits[b, t] scores every token of the vocabulary
            as the token that comes after position t, that is as ids[b, t + 1].
    ids: an int64 tensor of shape (B, T), the token ids. ids[b, 0] is never a target; a target equal
         to ignore_index is skipped. At least one target is kept.
    Returns a 0-d float64 tensor: the mean of -log softmax(logits[b, t])[ids[b, t + 1]] over the
    kept targets, computed stably however large the logits are.
    """
    z = logits[:, :-1]
    t = ids[:, 1:]
    keep = (t != ignore_index).to(z.dtype)
    safe = torch.where(t == ignore_index, torch.zeros_like(t), t)
    onehot = torch.nn.functional.one_hot(safe, num_classes=z.shape[-1]).to(z.dtype)
    logp_target = (onehot * z).sum(-1) - torch.logsumexp(z, dim=-1)
    return -(logp_target * keep).sum() / keep.sum()
