# mistake: takes log of the softmax probability, which underflows to log(0) = inf for tiny probabilities
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
    y = ids[:, 1:]
    keep = y != ignore_index
    y = y.masked_fill(~keep, 0)
    p = torch.softmax(z, dim=-1).gather(-1, y.unsqueeze(-1)).squeeze(-1)
    return -torch.log(p)[keep].mean()
