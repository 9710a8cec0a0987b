# mistake: the cosine given 180 * ratio as if it took degrees
# varies: right_numpy.py

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
    return min_lr + 0.5 * (1 + math.cos(180 * r)) * (max_lr - min_lr)
