# mistake: divides loss and gradient by N (all rows) instead of the kept count
"""Lesson 21: the softmax cross-entropy loss and its gradient with respect to the logits, by hand."""
import numpy as np


def softmax(x, axis=-1):
    """Softmax of `x` along `axis` (lesson 01): stable for huge logits and rows holding -inf."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def ce_loss_and_grad(logits, targets, ignore_index=-100):
    """Mean cross-entropy of softmax(logits) against targets, and its gradient.

    logits: float64 array (N, V), one row of V logits per example.
    targets: int array (N,), each a class in 0..V-1 or ignore_index (that row is left out).
    ignore_index: the target value that marks a row to ignore (at least one row is kept).
    Returns (loss, grad): loss a float, the mean over the kept rows of -log softmax(row)[target];
    grad (N, V), d loss / d logits, with rows of zeros for the ignored examples.
    """
    N, V = logits.shape
    keep = targets != ignore_index
    n = N
    safe = np.where(keep, targets, 0)
    m = logits.max(axis=-1, keepdims=True)
    shifted = logits - m
    lse = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    log_probs = shifted - lse
    picked = log_probs[np.arange(N), safe]
    loss = float(-(picked * keep).sum() / n)
    grad = softmax(logits, axis=-1)
    grad[np.arange(N), safe] -= 1.0
    grad = grad * keep[:, None] / n
    return loss, grad
