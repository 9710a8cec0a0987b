"""Known mistakes for lesson 13 (the language-modelling loss)."""
import torch

from grader.lessons.authoring import mistake


def stable_lse(scores, dim=-1):
    top = scores.max(dim=dim, keepdim=True).values
    return top.squeeze(dim) + torch.log(torch.exp(scores - top).sum(dim=dim))


def target_losses(scores, targets, ignore_index):
    """(each target's loss, keep): the lesson's steps 2 to 4, done right."""
    keep = targets != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    picked = scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return stable_lse(scores) - picked, keep


@mistake("no-shift", hint=1, message="""\
You score the logits at position t against ids[t], the token the model was given at that position,
not the one after it. That trains a model to copy what it already sees. The logits at position t
predict ids[t + 1]: compare `logits[:, :-1]` with `ids[:, 1:]`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits, ids, ignore_index)
    return nll[keep].sum() / keep.sum()


@mistake("shift-backwards", hint=1, message="""\
You shift the wrong way round: `logits[:, 1:]` against `ids[:, :-1]` scores each position against
the token BEFORE it, so the model would be trained to predict the past. Position t has read the
tokens up to t and guesses the next one: pair `logits[:, :-1]` with `ids[:, 1:]`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, 1:], ids[:, :-1], ignore_index)
    return nll[keep].sum() / keep.sum()


@mistake("ignore-index-unused", hint=2, message="""\
Your function never leaves out the targets equal to `ignore_index`. A `-100` target then reaches the
lookup of the target's logit, which fails, and a padding token with a real id is scored as if it
were text. Mark the kept targets (`keep = targets != ignore_index`), look up only valid ids, and
average over the kept targets alone.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    picked = scores.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (stable_lse(scores) - picked).mean()


@mistake("gathered-before-masking", hint=2, message="""\
You look up each target's logit with the raw targets, `-100` included, and only drop the ignored
losses afterwards. `gather` (like indexing) needs a valid token id everywhere, even where the loss
will be thrown away, so a `-100` makes it fail. Replace the ignored targets by a valid id first,
without touching `ids`: `safe = torch.where(keep, targets, 0)`.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets != ignore_index
    picked = scores.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    nll = stable_lse(scores) - picked
    return nll[keep].sum() / keep.sum()


@mistake("ignored-in-the-count", hint=3, message="""\
You zero the ignored losses but still divide by the number of ALL targets, B * (T - 1). The ignored
targets then count as perfect predictions, and the loss shrinks as the padding grows. Divide the sum
by the number of kept targets, `keep.sum()`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], ignore_index)
    return torch.where(keep, nll, torch.zeros_like(nll)).sum() / keep.numel()


@mistake("divided-by-b-times-t", hint=3, message="""\
You divide the summed loss by B * T, the number of positions. Only T - 1 positions per sequence have
a target, and of those only the kept ones count: divide by `keep.sum()`, the number of targets that
were scored.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], ignore_index)
    B, T = ids.shape
    return nll[keep].sum() / (B * T)


@mistake("mask-from-inputs", hint=1, message="""\
You build the mask from `ids[:, :-1]`, the tokens the logits were computed FROM, instead of from
the targets `ids[:, 1:]`. The mask is then one step out of line: it drops the prediction made from a
padding token and keeps the one whose target is padding. `ignore_index` marks targets: compare
`ids[:, 1:]` with it.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = ids[:, :-1] != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    picked = scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    nll = stable_lse(scores) - picked
    return nll[keep].sum() / keep.sum()


@mistake("exp-overflow", hint=2, message="""\
You compute `log(sum(exp(logits)))` directly. In float64 `exp` overflows to inf for any logit above
about 709.8, and the loss becomes inf or nan. Take out each row's maximum first:
`m + log(sum(exp(z - m)))`, where every exponential is at most 1 (or use `torch.logsumexp`, which
does this for you).""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    lse = torch.log(torch.exp(scores).sum(dim=-1))
    nll = lse - scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return nll[keep].sum() / keep.sum()


@mistake("log-of-softmax", hint=2, message="""\
You take `log(softmax(logits))`. The softmax itself is stable, but a target with a probability
below about e^-745 is stored as exactly 0, and log(0) = -inf makes the loss inf, although the true
loss (over 1000 here) is an ordinary number. Never form the probability: the loss is log-sum-exp
minus the target's logit.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    logp = torch.log(torch.softmax(scores, dim=-1))
    nll = -logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return nll[keep].sum() / keep.sum()


@mistake("sum-not-mean", hint=3, message="""\
You return the SUM of the kept losses. The language-modelling loss is their mean, so that its size
does not depend on the batch size or the sequence length (and a learning rate means the same thing
for any batch). Divide by the number of kept targets, `keep.sum()`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], ignore_index)
    return nll[keep].sum()


@mistake("logsumexp-over-time", hint=2, message="""\
Your log-sum-exp runs over the time axis (dim=1) instead of the vocabulary. A softmax normalises the
V scores of ONE position, which sit on the last axis: take the maximum and the sum with `dim=-1`.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    top = scores.max(dim=1, keepdim=True).values
    logp = scores - (top + torch.log(torch.exp(scores - top).sum(dim=1, keepdim=True)))
    nll = -logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return nll[keep].sum() / keep.sum()


@mistake("hardcoded-minus-100", hint=1, message="""\
You skip the targets equal to -100 whatever `ignore_index` says. -100 is only the default: a
tokenizer's padding token is often a real id (0 here), and the caller passes it as `ignore_index`.
Compare the targets with the argument: `keep = targets != ignore_index`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], -100)
    return nll[keep].sum() / keep.sum()


@mistake("mean-of-sequence-means", hint=3, message="""\
You average each sequence's loss first and then average the sequences. A sequence with 2 kept
targets then weighs as much as one with 7. The language-modelling loss (and `F.cross_entropy`) is
the mean over all kept targets of the batch together: one sum, divided by one count, `keep.sum()`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], ignore_index)
    per_sequence = torch.where(keep, nll, torch.zeros_like(nll)).sum(dim=1) / keep.sum(dim=1)
    return per_sequence.mean()


@mistake("ignored-targets-overwritten", hint=2, message="""\
You replace the ignored targets in place (`targets[targets == ignore_index] = 0`). `targets =
ids[:, 1:]` is a view that shares its memory with `ids`, so that line rewrites the caller's `ids`.
Build a new tensor instead: `safe = torch.where(keep, targets, torch.zeros_like(targets))`.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets != ignore_index
    targets[~keep] = 0
    picked = scores.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    nll = stable_lse(scores) - picked
    return nll[keep].sum() / keep.sum()


@mistake("view-on-a-slice", hint=3, message="""\
`.view(...)` raised a RuntimeError: `logits[:, :-1]` and `ids[:, 1:]` are slices that skip an entry
at the end (or start) of every row, so for more than one sequence their memory is not one
contiguous block, and `view` cannot flatten them. Use `.reshape(...)`, which copies when it must,
or work on the (B, T-1) shapes without flattening.""")
def lm_loss(logits, ids, ignore_index=-100):
    V = logits.shape[-1]
    scores, targets = logits[:, :-1].view(-1, V), ids[:, 1:].view(-1)
    nll, keep = target_losses(scores, targets, ignore_index)
    return nll[keep].sum() / keep.sum()


@mistake("returns-float", hint=3, message="""\
Your value is right, but you return a Python float (`.item()` or `float(...)`). A float is the end
of the line: the training step of lesson 22 calls `.backward()` on the loss to get its gradient.
Return the 0-d tensor itself.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], ignore_index)
    return (nll[keep].sum() / keep.sum()).item()


@mistake("no-minus-sign", hint=2, message="""\
Your loss has the wrong sign: you return the mean log-probability of the targets, which is negative,
instead of the negative log-likelihood. The loss of one target is log-sum-exp of its row minus the
target's logit, `lse - picked`, a positive number that falls as the model improves.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], ignore_index)
    return -nll[keep].sum() / keep.sum()


@mistake("maximum-not-added-back", hint=2, message="""\
You take each row's maximum out before the exponentials but never add it back:
`log(sum(exp(z - m)))` is log-sum-exp of z MINUS m. The stable form is
`m + log(sum(exp(z - m)))`.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    top = scores.max(dim=-1, keepdim=True).values
    lse = torch.log(torch.exp(scores - top).sum(dim=-1))
    nll = lse - scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return nll[keep].sum() / keep.sum()


@mistake("batch-maximum", hint=2, message="""\
You take out one maximum for the whole batch (`logits.max()`) instead of each row's own. That is
right on paper, but a position whose logits all sit far below the batch's maximum gets
exp(z - m) = 0 for every entry, log(0) = -inf, and the loss breaks. Take the maximum over the last
axis, `scores.max(dim=-1, keepdim=True)`, so every row has an exponential equal to 1.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets != ignore_index
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    top = scores.max()
    lse = top + torch.log(torch.exp(scores - top).sum(dim=-1))
    nll = lse - scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return nll[keep].sum() / keep.sum()


@mistake("ignored-in-the-sum", hint=3, message="""\
You divide by the number of kept targets but sum the loss of every target, the ignored ones
included (scored as if their target were the stand-in id 0). Drop the ignored losses before
summing: `nll[keep].sum() / keep.sum()`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-1], ids[:, 1:], ignore_index)
    return nll.sum() / keep.sum()


@mistake("keep-by-sign", hint=1, message="""\
You decide which targets to skip by their sign (`targets >= 0`) instead of comparing them with
`ignore_index`. That fits -100 and -1, but not a padding token with a real id such as 0, which must
be skipped too. Use `keep = targets != ignore_index`.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = targets >= 0
    safe = torch.where(keep, targets, torch.zeros_like(targets))
    nll = stable_lse(scores) - scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return nll[keep].sum() / keep.sum()


@mistake("shifted-twice", hint=1, message="""\
You shift twice: the logits at position t end up scored against ids[t + 2]. Shift once, in one
place: `logits[:, :-1]` against `ids[:, 1:]` (if you cut `targets = ids[:, 1:]` first, do not cut
it again).""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, :-2], ids[:, 2:], ignore_index)
    return nll[keep].sum() / keep.sum()


@mistake("both-cut-at-the-front", hint=1, message="""\
You drop the first position from both the logits and the ids (`logits[:, 1:]` with `ids[:, 1:]`), so
each position is scored against the token it was given, not the next one. The last position has no
target; the first token is never a target: `logits[:, :-1]` against `ids[:, 1:]`.""")
def lm_loss(logits, ids, ignore_index=-100):
    nll, keep = target_losses(logits[:, 1:], ids[:, 1:], ignore_index)
    return nll[keep].sum() / keep.sum()


@mistake("mask-from-inputs-clamped", hint=1, message="""\
You build the mask from `ids[:, :-1]`, the tokens the logits were computed FROM, instead of from
the targets `ids[:, 1:]` (and make the targets valid with a clamp). The mask is then one step out of
line: it drops the prediction made from a padding token and keeps the one whose target is padding.
`ignore_index` marks targets: `keep = ids[:, 1:] != ignore_index`.""")
def lm_loss(logits, ids, ignore_index=-100):
    scores, targets = logits[:, :-1], ids[:, 1:]
    keep = ids[:, :-1] != ignore_index
    safe = targets.clamp(min=0)
    nll = stable_lse(scores) - scores.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return nll[keep].sum() / keep.sum()
