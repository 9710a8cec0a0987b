# right: one-hot matrix built by comparison, weights vector w = keep / n used for both loss and gradient
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
    z = np.asarray(logits, dtype=np.float64)
    t = np.asarray(targets)
    w = (t != ignore_index).astype(np.float64)
    w = w / w.sum()
    onehot = (np.arange(z.shape[1])[None, :] == t[:, None]).astype(np.float64)
    m = np.max(z, axis=1, keepdims=True)
    logZ = m[:, 0] + np.log(np.sum(np.exp(z - m), axis=1))
    target_logit = np.sum(onehot * z, axis=1)
    loss = float(np.dot(w, logZ - target_logit))
    p = np.exp(z - logZ[:, None])
    grad = (p - onehot) * w[:, None]
    return loss, grad
