"""Known mistakes for lesson 21 (the cross-entropy loss and its gradient, by hand)."""
import numpy as np

from grader.lessons.authoring import mistake


def log_softmax(z, axis=-1, stable=True):
    if stable:
        z = z - np.max(z, axis=axis, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))


def variant(logits, targets, ignore_index, *, divide_loss="kept", divide_grad="kept", sign=1.0,
            zero_ignored=True, stable=True, axis=-1, ignore_value=None):
    """The right computation with one piece changed."""
    n, v = logits.shape
    ignore = ignore_index if ignore_value is None else ignore_value
    keep = targets != ignore
    safe = np.where(keep, targets, 0)
    log_probs = log_softmax(logits, axis=axis, stable=stable)
    picked = log_probs[np.arange(n), safe]
    counts = {"kept": np.sum(keep), "all": n, "entries": n * v, "none": 1}
    loss = -np.sum(np.where(keep, picked, 0.0)) / counts[divide_loss]
    one_hot = (np.arange(v) == safe[:, None]) & keep[:, None]
    grad = sign * (np.exp(log_probs) - one_hot)
    if zero_ignored:
        grad = grad * keep[:, None]
    return float(loss), grad / counts[divide_grad]


@mistake("grad-not-divided", hint=1, message="""\
Your loss is the mean over the kept rows, but your gradient is `softmax - one_hot` without the
division by their number. The gradient is the derivative of the loss you return: dividing the loss
by n divides every partial derivative by n too. The finite-difference case shows it: nudging one
logit changes your loss n times less than your gradient says.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, divide_grad="none")


@mistake("loss-not-divided", hint=1, message="""\
Your loss is the sum of the kept rows' losses, not their mean, while your gradient is divided by
their number (or the other way round, the two disagree). Cross-entropy here is the mean over the
kept rows, as `F.cross_entropy` computes it by default (`reduction="mean"`): divide the sum by the
number of kept rows.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, divide_loss="none")


@mistake("divides-by-all-rows", hint=1, message="""\
You divide by N, the number of rows, including the ignored ones. An ignored row is not part of the
batch as far as the loss is concerned: the mean is over the rows that have a target, so divide by
`np.sum(targets != ignore_index)`. With most rows ignored (padding) the difference is large.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, divide_loss="all", divide_grad="all")


@mistake("mean-over-entries", hint=1, message="""\
You average over every entry of the (N, V) array, for instance `-np.mean(one_hot * log_probs)`,
which divides by N * V. The one-hot zeros are not examples: each row contributes one term,
-log p(target), and the mean is over the kept rows only.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, divide_loss="entries", divide_grad="entries")


@mistake("grad-sign-flipped", hint=1, message="""\
Your gradient has the wrong sign: `one_hot - softmax` instead of `softmax - one_hot`. The loss is
*minus* the log-probability of the target, so raising the target's logit lowers the loss (a
negative derivative) and raising any other logit raises it. Gradient descent subtracts this
gradient; with the sign flipped, training would push the loss up.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, sign=-1.0)


@mistake("ignored-rows-not-zeroed", hint=2, message="""\
The rows of ignored examples in your gradient are not zero: you leave their softmax there (only the
one-hot part is skipped). An ignored row does not appear in the loss at all, so nudging its logits
changes nothing, and its gradient row must be exactly 0. Multiply the gradient by the keep mask,
`keep[:, None]`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, zero_ignored=False)


@mistake("ignore-index-hardcoded", hint=2, message="""\
You always ignore the target -100, whatever `ignore_index` says. The argument exists because data
sets mark padding differently (often with the padding token's id, such as 0, or with -1); use
`targets != ignore_index`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, ignore_value=-100)


@mistake("exp-without-max", hint=2, message="""\
You compute log(sum(exp(z))) directly. For logits near 1000, `np.exp` overflows to infinity (and
near -1000 every term is 0, whose log is -inf), so the loss becomes inf or NaN. Subtract each row's
maximum first: log sum exp(z) = m + log sum exp(z - m) with m the row's largest logit, which makes
the largest term exp(0) = 1.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, stable=False)


@mistake("log-of-softmax", hint=2, message="""\
You take the log of the softmax, `np.log(softmax(z)[target])`. When the target's logit is far below
the row's best (by more than about 745), its probability rounds to exactly 0 and the log is -inf,
although the true loss is an ordinary number (about the gap). Compute the log-probability directly
as z - max - log(sum(exp(z - max))): no probability is ever rounded before the log.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    n = logits.shape[0]
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    probs = softmax(logits, axis=-1)
    picked = np.log(probs[np.arange(n), safe])
    loss = -np.sum(np.where(keep, picked, 0.0)) / np.sum(keep)
    one_hot = np.arange(logits.shape[1]) == safe[:, None]
    return float(loss), (probs - one_hot) * keep[:, None] / np.sum(keep)


@mistake("softmax-over-the-batch", hint=3, message="""\
Your softmax (and log-sum-exp) runs down the columns, over the examples of the batch, instead of
along each row, over the classes. Each example has its own distribution over the V classes:
normalise with `axis=-1` (or `axis=1`).""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, axis=0)


@mistake("picked-logits-matrix", hint=2, message="""\
You pick the targets' log-probabilities with `log_probs[:, targets]`, which is not one entry per row
but an (N, N) array: every row's log-probabilities at every target. Pairing row i with target i
takes two index arrays: `log_probs[np.arange(N), targets]` (with the ignored rows' targets replaced
by a valid index first, then masked).""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    n = logits.shape[0]
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    log_probs = log_softmax(logits)
    picked = log_probs[:, safe]
    loss = -np.sum(np.where(keep, picked, 0.0)) / (np.sum(keep) * n)
    one_hot = np.arange(logits.shape[1]) == safe[:, None]
    return float(loss), (np.exp(log_probs) - one_hot) * keep[:, None] / np.sum(keep)


@mistake("ignored-targets-used-as-indices", hint=2, message="""\
You index with the targets as they are, ignored ones included, and never leave those rows out.
The value -100 is not a class: as an index it is out of range (or, with another ignore_index such
as -1, it silently picks the last class). Mark the kept rows with `targets != ignore_index`, replace
the others' targets by any valid index (such as 0) before indexing, and mask those rows out of the
loss and the gradient.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    n, v = logits.shape
    log_probs = log_softmax(logits)
    loss = -np.mean(log_probs[np.arange(n), targets])
    one_hot = np.zeros_like(logits)
    one_hot[np.arange(n), targets] = 1.0
    return float(loss), (np.exp(log_probs) - one_hot) / n


@mistake("one-hot-indices-swapped", hint=2, message="""\
You build the one-hot with the indices the wrong way round, `one_hot[targets, np.arange(N)] = 1`:
that puts example i's 1 in row targets[i], column i, so it fails (or lands in the wrong place)
whenever N and V differ. The array has one row per example and one column per class: row first,
`one_hot[np.arange(N), targets] = 1`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    n = logits.shape[0]
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    log_probs = log_softmax(logits)
    loss = -np.sum(np.where(keep, log_probs[np.arange(n), safe], 0.0)) / np.sum(keep)
    one_hot = np.zeros_like(logits)
    one_hot[safe, np.arange(n)] = 1.0
    return float(loss), (np.exp(log_probs) - one_hot) * keep[:, None] / np.sum(keep)


@mistake("grad-softmax-unstable", hint=2, message="""\
Your loss is computed stably, but the softmax in your gradient is `np.exp(z) / np.sum(np.exp(z))`
on the raw logits, which overflows for logits near 1000 (and divides 0 by 0 near -1000). Take the
gradient's probabilities from the stable log-probabilities you already have, `np.exp(log_probs)`,
or subtract each row's maximum first (z - m).""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    loss, _ = variant(logits, targets, ignore_index)
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    e = np.exp(logits)
    one_hot = np.arange(logits.shape[1]) == safe[:, None]
    return loss, (e / np.sum(e, axis=-1, keepdims=True) - one_hot) * keep[:, None] / np.sum(keep)


@mistake("grad-divided-by-all-rows", hint=1, message="""\
Your loss is the mean over the kept rows, but your gradient is divided by N, all the rows, ignored
ones included. The gradient is the derivative of the loss you return, so it is divided by the same
number: the count of kept rows, `keep.sum()`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, divide_grad="all")


@mistake("ignored-rows-kept-in-grad", hint=2, message="""\
Your gradient treats the ignored rows as ordinary examples whose target is the stand-in class 0:
they get `softmax - one_hot(0)` instead of zeros. The stand-in only makes indexing safe; an ignored
row has no loss, so its gradient is zero: multiply by `keep[:, None]`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    loss, _ = variant(logits, targets, ignore_index)
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    one_hot = np.arange(logits.shape[1]) == safe[:, None]
    return loss, (np.exp(log_softmax(logits)) - one_hot) / np.sum(keep)


@mistake("ignored-rows-in-the-loss", hint=2, message="""\
Your loss adds up the log-probabilities of every row, the ignored ones included (scored at the
stand-in class 0), before dividing by the number of kept rows. Drop the ignored rows from the sum:
`np.where(keep, picked, 0)`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    _, grad = variant(logits, targets, ignore_index)
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    picked = log_softmax(logits)[np.arange(logits.shape[0]), safe]
    return float(-np.sum(picked) / np.sum(keep)), grad


@mistake("shifts-logits-in-place", hint=2, message="""\
You subtract each row's maximum from `logits` in place (`logits -= logits.max(...)`), which changes
the caller's array. Shifting is right, but into a new array: `shifted = logits - np.max(logits,
axis=-1, keepdims=True)`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    logits -= np.max(logits, axis=-1, keepdims=True)
    return variant(logits, targets, ignore_index)


@mistake("sum-not-mean", hint=1, message="""\
Your loss is the SUM of the kept rows' losses, and your gradient, consistently, is that of the sum
(softmax - one_hot, not divided). Both are right for a sum, but cross-entropy here is the mean over
the kept rows: divide the loss and the gradient by the number of kept rows, `keep.sum()`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    return variant(logits, targets, ignore_index, divide_loss="none", divide_grad="none")


@mistake("ignore-index-hardcoded-indexed", hint=2, message="""\
You always ignore the target -100, whatever `ignore_index` says, so with `ignore_index=-1` the rows
marked -1 are scored as if their class were -1, which numpy reads as the LAST class (an index that
counts from the end), in the loss and in the gradient. Use the argument:
`keep = targets != ignore_index`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    n = logits.shape[0]
    keep = targets != -100
    safe = np.where(keep, targets, 0)
    log_probs = log_softmax(logits)
    loss = -np.sum(np.where(keep, log_probs[np.arange(n), safe], 0.0)) / np.sum(keep)
    grad = np.exp(log_probs)
    grad[np.arange(n), safe] -= 1.0
    return float(loss), grad * keep[:, None] / np.sum(keep)


@mistake("grad-softmax-over-the-batch", hint=3, message="""\
Your loss is right, but the softmax in your gradient runs down the columns (`softmax(logits,
axis=0)`), over the examples of the batch, instead of along each row, over the classes. Each
example's gradient is its own row's probabilities minus its one-hot: `softmax(logits, axis=-1)`, or
`np.exp(log_probs)`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    loss, _ = variant(logits, targets, ignore_index)
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    one_hot = np.arange(logits.shape[1]) == safe[:, None]
    return loss, (np.exp(log_softmax(logits, axis=0)) - one_hot) * keep[:, None] / np.sum(keep)


@mistake("log-probs-not-normalised", hint=2, message="""\
Your log-probabilities are the shifted logits themselves, `z - m`: the log of the softmax's
denominator is missing, so your loss and gradient use numbers that are not log-probabilities.
Subtract the log-sum-exp of each row too: `log_probs = z - m - np.log(np.sum(np.exp(z - m),
axis=-1, keepdims=True))`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    n, v = logits.shape
    keep = targets != ignore_index
    safe = np.where(keep, targets, 0)
    log_probs = logits - np.max(logits, axis=-1, keepdims=True)
    loss = -np.sum(np.where(keep, log_probs[np.arange(n), safe], 0.0)) / np.sum(keep)
    one_hot = np.arange(v) == safe[:, None]
    return float(loss), (np.exp(log_probs) - one_hot) * keep[:, None] / np.sum(keep)


@mistake("one-hot-not-subtracted", hint=3, message="""\
Your gradient is the softmax alone, divided by the number of kept rows: the one-hot of each target
is missing. The gradient of -log softmax(z)[t] with respect to z is softmax(z) minus the one-hot of
t: `grad = (np.exp(log_probs) - one_hot) * keep[:, None] / n`.""")
def ce_loss_and_grad(logits, targets, ignore_index=-100):
    loss, grad = variant(logits, targets, ignore_index)
    keep = targets != ignore_index
    return loss, np.exp(log_softmax(logits)) * keep[:, None] / np.sum(keep)
