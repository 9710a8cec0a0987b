"""Known mistakes for lesson 25 (a linear warmup, then a cosine decay to a minimum)."""
import math

from grader.lessons.authoring import mistake


def decay(step, max_lr, min_lr, warmup_steps, max_steps):
    ratio = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


@mistake("warmup-starts-at-zero", hint=1, message="""\
Your warmup is max_lr * step / warmup_steps, so the first step has a rate of 0 (it changes
nothing) and the warmup never reaches max_lr before the decay takes over. The lesson's warmup is
max_lr * (step + 1) / warmup_steps: step 0 gets max_lr / warmup_steps, and the last warmup step,
warmup_steps - 1, gets max_lr.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    if step > max_steps:
        return min_lr
    return decay(step, max_lr, min_lr, warmup_steps, max_steps)


@mistake("nanogpt-warmup", hint=1, message="""\
Your warmup is max_lr * (step + 1) / (warmup_steps + 1), nanoGPT's convention: its last warmup
step stays below max_lr, which only the first decay step reaches. This lesson's warmup (as in
build-nanogpt and torch's LinearLR from 1 / warmup_steps) divides by warmup_steps:
max_lr * (step + 1) / warmup_steps reaches max_lr at step warmup_steps - 1.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / (warmup_steps + 1)
    if step > max_steps:
        return min_lr
    return decay(step, max_lr, min_lr, warmup_steps, max_steps)


@mistake("decays-past-the-end", hint=1, message="""\
After max_steps your rate follows the cosine back up: cos(pi * ratio) rises again once ratio
passes 1, so a run that goes on past max_steps speeds up instead of settling. Past the end of the
decay the rate stays at min_lr: add `if step > max_steps: return min_lr`.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    return decay(step, max_lr, min_lr, warmup_steps, max_steps)


@mistake("cosine-in-degrees", hint=2, message="""\
Your cosine takes degrees, cos(180 * ratio), but math.cos works in radians: 180 radians is about
29 full turns, so the rate swings up and down all through the decay. Half a turn is pi radians:
math.cos(math.pi * ratio).""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    ratio = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1.0 + math.cos(180 * ratio)) * (max_lr - min_lr)


@mistake("minimum-ignored", hint=2, message="""\
Your decay goes down to 0, max_lr * 0.5 * (1 + cos(pi * ratio)), ignoring min_lr, and then jumps
back up to min_lr after max_steps. The decay ends at min_lr: min_lr + coeff * (max_lr - min_lr).""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    ratio = (step - warmup_steps) / (max_steps - warmup_steps)
    return max_lr * 0.5 * (1.0 + math.cos(math.pi * ratio))


@mistake("minimum-added-to-the-peak", hint=2, message="""\
You add the cosine's share of max_lr to min_lr, min_lr + coeff * max_lr, so the decay starts at
max_lr + min_lr, above the peak. Move by the distance between the two ends:
min_lr + coeff * (max_lr - min_lr), which is max_lr at the start and min_lr at the end.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    ratio = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * max_lr


@mistake("ratio-from-step-zero", hint=2, message="""\
Your cosine's ratio is step / max_steps, counted from the first step instead of from the end of
the warmup. The decay then starts part-way down (the rate drops the moment the warmup ends) and
reaches min_lr only at max_steps by chance. Count from the warmup's end:
ratio = (step - warmup_steps) / (max_steps - warmup_steps).""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    ratio = step / max_steps
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


@mistake("no-half", hint=2, message="""\
Your coefficient is 1 + cos(pi * ratio), which runs from 2 to 0: the decay starts at twice the
peak. Halve it, 0.5 * (1 + cos(pi * ratio)), so that it runs from 1 to 0.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    ratio = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


@mistake("linear-decay", hint=2, message="""\
Your decay is a straight line from max_lr to min_lr. The lesson's decay follows half a cosine
wave: 0.5 * (1 + cos(pi * ratio)) falls slowly at first, fastest in the middle and slowly again
near the end, and only meets the straight line at the two ends and halfway.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    ratio = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + (1.0 - ratio) * (max_lr - min_lr)


@mistake("warmup-from-the-minimum", hint=1, message="""\
Your warmup climbs from min_lr to max_lr. The lesson's warmup is a straight line from 0:
max_lr * (step + 1) / warmup_steps (min_lr is only where the decay ends).""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return min_lr + (max_lr - min_lr) * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    return decay(step, max_lr, min_lr, warmup_steps, max_steps)


@mistake("decay-ends-a-step-early", hint=3, message="""\
Your decay reaches min_lr at max_steps - 1: you divide by max_steps - warmup_steps - 1, as if
max_steps were not a step of the decay. The ratio is (step - warmup_steps) / (max_steps -
warmup_steps): 0 at warmup_steps, 1 at max_steps itself.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= max_steps - 1:
        return min_lr
    ratio = (step - warmup_steps) / (max_steps - warmup_steps - 1)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


@mistake("warmup-one-step-too-long", hint=1, message="""\
Your warmup also takes step == warmup_steps (step <= warmup_steps), so that step gets
max_lr * (warmup_steps + 1) / warmup_steps, above the peak, and the decay starts a step late. The
warmup is the steps 0 to warmup_steps - 1: `if step < warmup_steps`.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step <= warmup_steps and warmup_steps > 0:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    return decay(step, max_lr, min_lr, warmup_steps, max_steps)


@mistake("whole-steps-of-warmup", hint=1, message="""\
Your warmup divides with //, so (step + 1) // warmup_steps is 0 until the last warmup step: the
rate stays at 0 and then jumps to max_lr. Divide with /: max_lr * (step + 1) / warmup_steps.""")
def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    if step < warmup_steps:
        return max_lr * ((step + 1) // warmup_steps)
    if step > max_steps:
        return min_lr
    return decay(step, max_lr, min_lr, warmup_steps, max_steps)
