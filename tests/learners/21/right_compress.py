# right: drops ignored rows with boolean indexing, computes on the kept rows, scatters the gradient back into zeros
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
    keep = targets != ignore_index
    z = logits[keep]
    t = targets[keep]
    n = z.shape[0]
    lse = np.logaddexp.reduce(z, axis=1)
    loss = np.mean(lse - np.take_along_axis(z, t[:, None], axis=1)[:, 0])
    g = softmax(z)
    np.put_along_axis(g, t[:, None], np.take_along_axis(g, t[:, None], axis=1) - 1.0, axis=1)
    grad = np.zeros_like(logits, dtype=np.float64)
    grad[keep] = g / n
    return float(loss), grad
