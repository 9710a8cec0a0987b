# right: flattens, keeps rows with boolean indexing, and writes the max-shifted log-sum-exp by hand
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
    V = logits.shape[-1]
    z = logits[:, :-1, :].reshape(-1, V)
    y = ids[:, 1:].reshape(-1)
    sel = y != ignore_index
    z, y = z[sel], y[sel]
    m = z.max(dim=-1, keepdim=True).values
    lse = m.squeeze(-1) + torch.log(torch.exp(z - m).sum(dim=-1))
    target = z[torch.arange(z.shape[0]), y]
    return (lse - target).mean()
