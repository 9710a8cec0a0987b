# mistake: the cosine scales max_lr alone, min_lr is ignored
"""Lesson 25: the learning-rate schedule, a linear warmup then a cosine decay to a minimum."""
import math


# ---------------------------------------------------------------------------------------------
# Given: the whole schedule as a list, one learning rate per step (for plots, and for the checks).
# Your code goes further down.
# ---------------------------------------------------------------------------------------------

def schedule(n_steps, max_lr, min_lr, warmup_steps, max_steps):
    """[lr_at(step, ...) for step 0, 1, ..., n_steps - 1]."""
    return [lr_at(step, max_lr, min_lr, warmup_steps, max_steps) for step in range(n_steps)]


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    """The learning rate of training step `step` (0 for the first step), as a Python float.

    0 <= warmup_steps < max_steps and 0 <= min_lr <= max_lr.
    Warmup, step < warmup_steps:        max_lr * (step + 1) / warmup_steps
    Decay, warmup_steps <= step <= max_steps:
        ratio = (step - warmup_steps) / (max_steps - warmup_steps)      (from 0 to 1)
        min_lr + 0.5 * (1 + cos(pi * ratio)) * (max_lr - min_lr)
    After, step > max_steps:            min_lr
    """
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    r = (step - warmup_steps) / (max_steps - warmup_steps)
    return max_lr * 0.5 * (1 + math.cos(math.pi * r))
