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
    ### BEGIN SOLUTION
    # 1. Shift: the logits at position t predict the token at t + 1; the last position predicts
    #    nothing, and the first token is never predicted
    scores = logits[:, :-1]                 # (B, T-1, V)
    targets = ids[:, 1:]                    # (B, T-1)
    # 2. Which targets count; ignored ones become token 0, a valid index whose loss is dropped later
    keep = targets != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    # 3. log-sum-exp over the vocabulary, with the row's maximum taken out so exp never overflows
    top = scores.max(dim=-1, keepdim=True).values
    lse = top.squeeze(-1) + torch.log(torch.exp(scores - top).sum(dim=-1))
    # 4. The loss of each target: log-sum-exp minus the target's own logit, i.e. -log p(target)
    picked = scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    nll = lse - picked
    # 5. Mean over the kept targets only
    return nll[keep].sum() / keep.sum()
    ### END SOLUTION
