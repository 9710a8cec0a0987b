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
    ### BEGIN SOLUTION
    n_rows = logits.shape[0]
    # 1. Which rows count, and how many: the mean divides by the kept rows only
    keep = targets != ignore_index
    n_kept = np.sum(keep)
    safe = np.where(keep, targets, 0)            # any valid index for the ignored rows
    # 2. Log-probabilities without overflow: log softmax = z - max - log(sum(exp(z - max)))
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))
    # 3. The loss: minus the log-probability of each target, averaged over the kept rows
    picked = log_probs[np.arange(n_rows), safe]
    loss = -np.sum(np.where(keep, picked, 0.0)) / n_kept
    # 4. The gradient: (softmax - one-hot) / n_kept in kept rows, zero in ignored rows
    one_hot = np.arange(logits.shape[1]) == safe[:, None]
    grad = (np.exp(log_probs) - one_hot) * keep[:, None] / n_kept
    return float(loss), grad
    ### END SOLUTION
