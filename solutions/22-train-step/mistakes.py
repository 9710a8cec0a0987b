"""Known mistakes for lesson 22 (one training step with AdamW by hand)."""
import torch

from grader.lessons.authoring import mistake


@mistake("l2-not-decoupled", hint=2, message="""\
You add the weight decay to the gradient (`g + weight_decay * p`), which is Adam with an L2
penalty, not AdamW. The decay term then goes through the moments and is divided by sqrt(v), so
parameters with large gradients are hardly decayed at all. AdamW "decouples" the decay: the
moments see only the gradient, and the weights shrink separately, `p - lr * weight_decay * p`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name] + weight_decay * p
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * (m / (1 - b1 ** t)) / (torch.sqrt(v / (1 - b2 ** t)) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("no-bias-correction", hint=3, message="""\
You use m and v as they are, without dividing by (1 - b1^t) and (1 - b2^t). Both averages start
at zero, so in the first steps they are far too small (after one step m is only 0.1 g and v only
0.001 g^2), and the step size is wrong until t is in the thousands. Divide m by 1 - b1**t and v by
1 - b2**t before taking the ratio.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p - lr * m / (torch.sqrt(v) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("bias-correction-before-count", hint=1, message="""\
Your bias correction uses the number of steps taken BEFORE this one (t = state["step"]), so the
first step divides by 1 - b1**0 = 0. The step being taken is number state["step"] + 1: count it
first, then correct with that t.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"]
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        m_hat = m / (1 - b1 ** t)
        v_hat = v / (1 - b2 ** t)
        new_params[name] = p - lr * weight_decay * p - lr * m_hat / (torch.sqrt(v_hat) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t + 1, "m": m_new, "v": v_new}


@mistake("eps-inside-sqrt", hint=2, message="""\
You add eps under the square root, sqrt(v_hat + eps). AdamW (as torch.optim.AdamW computes it)
adds eps AFTER the root: sqrt(v_hat) + eps. The two agree when gradients are large, but when they
are small, sqrt(eps) = 1e-4 swamps sqrt(v_hat) and your steps shrink.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / torch.sqrt(
            v / (1 - b2 ** t) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("decay-after-update", hint=2, message="""\
You shrink the weights after the Adam step, (p - lr * step) * (1 - lr * weight_decay), so the decay
also shrinks this step's update. torch.optim.AdamW decays the OLD weights first and then subtracts
the step: p * (1 - lr * weight_decay) - lr * step. The difference, lr^2 * weight_decay * step, only
shows with a large learning rate and weight decay, which is how the check caught it.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        stepped = p - lr * (m / (1 - b1 ** t)) / (torch.sqrt(v / (1 - b2 ** t)) + eps)
        new_params[name] = stepped * (1 - lr * weight_decay)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("decay-without-lr", hint=2, message="""\
You decay by `weight_decay * p` without the learning rate. In torch.optim.AdamW (and in the lesson)
the decay is scaled by the learning rate, p * (1 - lr * weight_decay), so with weight_decay = 0.01
and lr = 0.01 the weights shrink by 0.01% per step, not by 1%.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - weight_decay * p - lr * (m / (1 - b1 ** t)) / (
            torch.sqrt(v / (1 - b2 ** t)) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("wrong-sign", hint=3, message="""\
Your update adds the step instead of subtracting it, so the parameters climb the loss instead of
descending it. The gradient points uphill: p - lr * m_hat / (sqrt(v_hat) + eps).""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p + lr * (m / (1 - b1 ** t)) / (
            torch.sqrt(v / (1 - b2 ** t)) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("moments-not-saved", hint=3, message="""\
You compute the new m and v but return the old ones in the state, so every step starts again from
the moments of the first one: Adam's memory of past gradients is lost. Put the updated m and v
(not the bias-corrected ones) into the state you return.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params = {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / (
            torch.sqrt(v / (1 - b2 ** t)) + eps)
    return new_params, {"step": t, "m": dict(state["m"]), "v": dict(state["v"])}


@mistake("corrected-moments-saved", hint=3, message="""\
You store the bias-corrected m_hat and v_hat in the state. The correction is only for using the
averages in this step; the running averages themselves must stay uncorrected, or the next step
corrects them a second time. Keep m and v in the state and compute m_hat, v_hat afresh each step.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m_hat = (b1 * state["m"][name] + (1 - b1) * g) / (1 - b1 ** t)
        v_hat = (b2 * state["v"][name] + (1 - b2) * g * g) / (1 - b2 ** t)
        new_params[name] = p - lr * weight_decay * p - lr * m_hat / (torch.sqrt(v_hat) + eps)
        m_new[name], v_new[name] = m_hat, v_hat
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("step-not-counted", hint=1, message="""\
The state you return keeps the old step count, so every later step thinks it is the first one and
applies the large first-step bias correction again. Return `"step": state["step"] + 1`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / (
            torch.sqrt(v / (1 - b2 ** t)) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": state["step"], "m": m_new, "v": v_new}


@mistake("betas-swapped", hint=3, message="""\
You average the gradient with b2 and its square with b1. In `betas=(b1, b2)` the first, 0.9, is for
the gradient itself (m, a short memory) and the second, 0.999, for the squared gradient (v, a long
memory).""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b2, b1 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / (
            torch.sqrt(v / (1 - b2 ** t)) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("v-not-squared", hint=3, message="""\
Your second moment averages the gradient's size |g| (or g itself) instead of its square g^2. v is
the running mean of g * g; its square root is then on the same scale as g, which is what makes the
step m_hat / sqrt(v_hat) about lr in size whatever the scale of the gradient.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g.abs()
        new_params[name] = p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / (
            torch.sqrt(v / (1 - b2 ** t)) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("loss-after-step", hint=3, message="""\
You return the loss of the UPDATED parameters. A training step reports the loss it computed its
gradient from, the loss of the parameters it was given (the usual training log: compute the loss,
backpropagate, update). Return that one, `loss.item()` from before the update; the next step will
report the new parameters' loss.""")
def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    leaves = {k: p.detach().clone().requires_grad_(True) for k, p in params.items()}
    loss = next_token_loss(gpt2_logits(leaves, ids, n_heads), ids)
    grads = dict(zip(leaves, torch.autograd.grad(loss, list(leaves.values()))))
    new_params, new_state = adamw_step(params, grads, state, lr, betas, eps, weight_decay)
    with torch.no_grad():
        after = next_token_loss(gpt2_logits(new_params, ids, n_heads), ids)
    return after.item(), new_params, new_state


@mistake("defaults-in-train-step", hint=3, message="""\
Your `train_step` calls `adamw_step` without passing on its own `betas`, `eps` and `weight_decay`,
so the optimizer always runs with the defaults whatever the caller asked for. Pass every setting
through: `adamw_step(params, grads, state, lr, betas, eps, weight_decay)`.""")
def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    leaves = {k: p.detach().clone().requires_grad_(True) for k, p in params.items()}
    loss = next_token_loss(gpt2_logits(leaves, ids, n_heads), ids)
    grads = dict(zip(leaves, torch.autograd.grad(loss, list(leaves.values()))))
    new_params, new_state = adamw_step(params, grads, state, lr)
    return loss.item(), new_params, new_state


@mistake("update-with-old-moments", hint=2, message="""\
You take the Adam step with the moments from the state, before folding in this step's gradient, and
update m and v only afterwards. The order is: first the moments, m = b1 m + (1 - b1) g and
v = b2 v + (1 - b2) g^2, then the step from those NEW moments (bias-corrected with t).""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m_old, v_old = state["m"][name], state["v"][name]
        new_params[name] = p - lr * weight_decay * p - lr * (m_old / (1 - b1 ** t)) / (
            torch.sqrt(v_old / (1 - b2 ** t)) + eps)
        m_new[name] = b1 * m_old + (1 - b1) * g
        v_new[name] = b2 * v_old + (1 - b2) * g * g
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("decay-lr-squared", hint=2, message="""\
Your decay is scaled by the learning rate twice (`lr * lr * weight_decay * p`, for instance a decay
factor that already holds lr, multiplied by lr again). AdamW shrinks the old weights by
lr * weight_decay once: `p - lr * weight_decay * p - lr * m_hat / (sqrt(v_hat) + eps)`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / (
            torch.sqrt(v / (1 - b2 ** t)) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("corrected-step-size", hint=2, message="""\
You fold both bias corrections into the learning rate, lr * sqrt(1 - b2^t) / (1 - b1^t), and divide
m by sqrt(v) + eps (the Adam paper's shortcut). That moves eps: it is then added to the uncorrected
sqrt(v), so with small gradients the step differs from torch.optim.AdamW's. Correct m and v
themselves and add eps after the root: `m_hat / (sqrt(v_hat) + eps)`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    t = state["step"] + 1
    step_size = lr * (1 - b2 ** t) ** 0.5 / (1 - b1 ** t)
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p - step_size * m / (torch.sqrt(v) + eps)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


@mistake("changes-its-inputs", hint=1, message="""\
Your `adamw_step` writes into what it was given: the state's moments or step (`state["m"][name] =
m`, `state["step"] += 1`) or the parameters themselves (`p -= ...`, `p.sub_(...)`). The caller may
still need them (to retry a step, or to compare before and after). Build new dicts of new tensors
and return them; never assign into the ones you were given.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    b1, b2 = betas
    state["step"] += 1
    t = state["step"]
    new_params = {}
    for name, p in params.items():
        g = grads[name]
        state["m"][name] = b1 * state["m"][name] + (1 - b1) * g
        state["v"][name] = b2 * state["v"][name] + (1 - b2) * g * g
        new_params[name] = p - lr * weight_decay * p - lr * (state["m"][name] / (1 - b1 ** t)) / (
            torch.sqrt(state["v"][name] / (1 - b2 ** t)) + eps)
    return new_params, state


@mistake("loss-as-tensor", hint=3, message="""\
Your `train_step` returns the loss as a tensor. The lesson asks for a Python float (training logs
and plots want plain numbers, and a tensor would keep its autograd graph alive): return
`loss.item()`.""")
def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    leaves = {k: p.detach().clone().requires_grad_(True) for k, p in params.items()}
    loss = next_token_loss(gpt2_logits(leaves, ids, n_heads), ids)
    grads = dict(zip(leaves, torch.autograd.grad(loss, list(leaves.values()))))
    new_params, new_state = adamw_step(params, grads, state, lr, betas, eps, weight_decay)
    return loss, new_params, new_state


@mistake("no-requires-grad", hint=2, message="""\
Your `train_step` stops on a RuntimeError from autograd ("element 0 of tensors does not require
grad"): the parameters you computed the loss from were never marked as needing a gradient. Make
leaf copies that record the graph, `leaves = {k: p.detach().clone().requires_grad_(True) ...}`,
compute the loss from them, and take `torch.autograd.grad(loss, list(leaves.values()))`.""")
def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    loss = next_token_loss(gpt2_logits(params, ids, n_heads), ids)
    grads = dict(zip(params, torch.autograd.grad(loss, list(params.values()))))
    new_params, new_state = adamw_step(params, grads, state, lr, betas, eps, weight_decay)
    return loss.item(), new_params, new_state


@mistake("shifted-before-the-loss", hint=2, message="""\
You shift the tokens yourself (`ids[:, :-1]` into the model, `ids[:, 1:]` as the targets) before
calling `next_token_loss`, which shifts again, so each position is scored against the token two
places ahead. The given loss already pairs logits[:, t] with ids[:, t + 1]: pass it the logits of
the whole batch (from the leaf copies) and the ids as they are,
`next_token_loss(gpt2_logits(leaves, ids, n_heads), ids)`.""")
def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    leaves = {k: p.detach().clone().requires_grad_(True) for k, p in params.items()}
    loss = next_token_loss(gpt2_logits(leaves, ids[:, :-1], n_heads), ids[:, 1:])
    grads = dict(zip(leaves, torch.autograd.grad(loss, list(leaves.values()))))
    new_params, new_state = adamw_step(params, grads, state, lr, betas, eps, weight_decay)
    return loss.item(), new_params, new_state


def stepped(params, grads, state, betas, moments, update):
    """AdamW's loop over the parameters, with the moments `moments(m, v, g, b1, b2)` and the new
    weights `update(p, m, v, t, b1, b2)` of a variant (the right ones for every other step)."""
    b1, b2 = betas
    t = state["step"] + 1
    new_params, m_new, v_new = {}, {}, {}
    for name, p in params.items():
        m, v = moments(state["m"][name], state["v"][name], grads[name], b1, b2)
        new_params[name] = update(p, m, v, t, b1, b2)
        m_new[name], v_new[name] = m, v
    return new_params, {"step": t, "m": m_new, "v": v_new}


def right_moments(m, v, g, b1, b2):
    return b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g


@mistake("first-moment-not-corrected", hint=3, message="""\
You divide v by its bias correction (1 - b2**t) but use m as it is. Both running averages start at
zero and need their own correction, so your first steps are about ten times too small (after one
step m is only 0.1 g). Correct both: `m_hat = m / (1 - b1 ** t)` and `v_hat = v / (1 - b2 ** t)`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    return stepped(params, grads, state, betas, right_moments, lambda p, m, v, t, b1, b2:
                   p - lr * weight_decay * p - lr * m / (torch.sqrt(v / (1 - b2 ** t)) + eps))


@mistake("second-moment-not-corrected", hint=3, message="""\
You divide m by its bias correction (1 - b1**t) but use v as it is. v starts at zero too, so in the
first steps sqrt(v) is far too small and your steps far too large (after one step v is only
0.001 g^2). Correct both: `m_hat = m / (1 - b1 ** t)` and `v_hat = v / (1 - b2 ** t)`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    return stepped(params, grads, state, betas, right_moments, lambda p, m, v, t, b1, b2:
                   p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / (torch.sqrt(v) + eps))


@mistake("no-eps", hint=2, message="""\
You divide by sqrt(v_hat) alone, without eps. Where a gradient is zero (or tiny) v_hat is zero too,
and the step is 0/0 (NaN) or huge. AdamW adds eps outside the square root: `sqrt(v_hat) + eps`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    return stepped(params, grads, state, betas, right_moments, lambda p, m, v, t, b1, b2:
                   p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / torch.sqrt(v / (1 - b2 ** t)))


@mistake("no-square-root", hint=2, message="""\
You divide by v_hat + eps without its square root. v estimates the SQUARE of the gradient, so the
step must divide by its root, which has the gradient's own size: `m_hat / (torch.sqrt(v_hat) + eps)`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    return stepped(params, grads, state, betas, right_moments, lambda p, m, v, t, b1, b2:
                   p - lr * weight_decay * p - lr * (m / (1 - b1 ** t)) / (v / (1 - b2 ** t) + eps))


@mistake("no-weight-decay", hint=2, message="""\
Your step leaves out the weight decay: the weights move by the Adam step alone. AdamW also shrinks
every weight towards zero in proportion to itself, on the old weights: `p - lr * weight_decay * p -
lr * m_hat / (sqrt(v_hat) + eps)`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    return stepped(params, grads, state, betas, right_moments, lambda p, m, v, t, b1, b2:
                   p - lr * (m / (1 - b1 ** t)) / (torch.sqrt(v / (1 - b2 ** t)) + eps))


@mistake("gradient-not-weighted", hint=3, message="""\
Your running averages add the new gradient at full weight (`b1 * m + g`), as momentum does. Adam's
moments are weighted averages: the old one keeps b1 of its weight and the new gradient gets the
rest, `m = b1 * m + (1 - b1) * g` and `v = b2 * v + (1 - b2) * g * g`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    return stepped(params, grads, state, betas,
                   lambda m, v, g, b1, b2: (b1 * m + g, b2 * v + g * g),
                   lambda p, m, v, t, b1, b2: p - lr * weight_decay * p
                   - lr * (m / (1 - b1 ** t)) / (torch.sqrt(v / (1 - b2 ** t)) + eps))



@mistake("old-step-number", hint=1, message="""\
You take this step's number to be the count of steps so far, `t = state["step"]`, both in the bias
correction and in the state you return: the first step divides by 1 - b1**0 = 0, and the count
never grows. This step is number `t = state["step"] + 1`; use that t in both places.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    new_params, new_state = stepped(params, grads, dict(state, step=state["step"] - 1), betas,
                                    right_moments, lambda p, m, v, t, b1, b2: p - lr * weight_decay * p
                                    - lr * (m / (1 - b1 ** t)) / (torch.sqrt(v / (1 - b2 ** t)) + eps))
    return new_params, new_state


@mistake("first-moment-unweighted", hint=3, message="""\
Your first moment adds the new gradient at full weight (`m = b1 * m + g`), as momentum does. Adam's
m is a weighted average: the old value keeps b1 of its weight and the gradient gets the rest,
`m = b1 * m + (1 - b1) * g`.""")
def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    return stepped(params, grads, state, betas,
                   lambda m, v, g, b1, b2: (b1 * m + g, b2 * v + (1 - b2) * g * g),
                   lambda p, m, v, t, b1, b2: p - lr * weight_decay * p
                   - lr * (m / (1 - b1 ** t)) / (torch.sqrt(v / (1 - b2 ** t)) + eps))
