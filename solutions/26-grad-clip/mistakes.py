"""Known mistakes for lesson 26 (gradient clipping by global norm)."""
import torch

from grader.lessons.authoring import mistake


@mistake("sum-of-norms", hint=1, message="""\
Your global norm adds up the tensors' norms. Norms do not add: two gradients of norms 5 and 12 are
one long vector of norm sqrt(5^2 + 12^2) = 13, not 17. Take the norm of the stacked per-tensor norms
(or add their p-th powers and take the p-th root).""")
def global_norm(grads, norm_type=2.0):
    return sum(torch.linalg.vector_norm(g, norm_type) for g in grads.values())


@mistake("squared-norm", hint=1, message="""\
Your global norm is the sum of the squared entries, without the square root: that is the norm
SQUARED. The 2-norm of all the gradients as one long vector is sqrt(sum of g^2); its square grows
much faster than the norm and clips at the wrong threshold.""")
def global_norm(grads, norm_type=2.0):
    return sum((g ** 2).sum() for g in grads.values())


@mistake("root-mean-square", hint=1, message="""\
You take the root of the MEAN of the squared entries, which is the gradients' typical entry size,
not their norm: it is the norm divided by sqrt(number of entries). The global norm is the length of
one long vector: it sums the squares of every entry (no division by their count) before the root.""")
def global_norm(grads, norm_type=2.0):
    flat = torch.cat([g.reshape(-1) for g in grads.values()])
    return torch.sqrt((flat ** 2).mean())


@mistake("norm-type-ignored", hint=1, message="""\
Your global_norm always computes the 2-norm, whatever norm_type asks for. Pass norm_type on:
torch.linalg.vector_norm(g, norm_type) for each tensor and again for the stacked norms (for
math.inf, that is the largest absolute entry).""")
def global_norm(grads, norm_type=2.0):
    norms = torch.stack([torch.linalg.vector_norm(g) for g in grads.values()])
    return torch.linalg.vector_norm(norms)


@mistake("infinity-through-the-power", hint=1, message="""\
You compute every p-norm as (sum of |g|^p)^(1/p), which breaks for norm_type = math.inf: |g|^inf
is 0 or inf and 1/inf is 0, so the result is meaningless. The infinity norm is the largest
absolute entry; torch.linalg.vector_norm(g, math.inf) handles every p, inf included.""")
def global_norm(grads, norm_type=2.0):
    return sum((g.abs() ** norm_type).sum() for g in grads.values()) ** (1.0 / norm_type)


@mistake("per-tensor-clipping", hint=2, message="""\
You clip each tensor by its own norm, so each is scaled by a different factor: the update changes
direction (small tensors are shrunk less than large ones, or not at all), and the global norm can
still exceed max_norm. Compute ONE factor from the global norm and scale every tensor by it.""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    clipped = {}
    for name, g in grads.items():
        own = torch.linalg.vector_norm(g, norm_type)
        clipped[name] = g * torch.clamp(max_norm / (own + 1e-6), max=1.0)
    return clipped, total


@mistake("clipped-values", hint=2, message="""\
You clamp each entry to [-max_norm, max_norm]. That clips the gradient's VALUES
(torch.nn.utils.clip_grad_value_), not its norm: it changes the direction of the update, and the
norm of the result still grows with the number of entries. Scale the whole gradient by one factor,
min(1, max_norm / (total + 1e-6)).""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    return {name: g.clamp(-max_norm, max_norm) for name, g in grads.items()}, total


@mistake("scales-up-small-gradients", hint=2, message="""\
You always multiply by max_norm / total, so gradients whose norm is below max_norm are scaled UP
to max_norm. Clipping is a cap, not a normalisation: clamp the factor at 1,
min(1, max_norm / (total + 1e-6)), so small gradients pass unchanged.""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    factor = max_norm / (total + 1e-6)
    return {name: g * factor for name, g in grads.items()}, total


@mistake("no-eps", hint=2, message="""\
Your factor is max_norm / total, without the 1e-6 that torch.nn.utils.clip_grad_norm_ adds:
max_norm / (total + 1e-6). It changes nothing for ordinary norms, but with tiny gradients the
factors differ visibly, and with all-zero gradients yours divides by zero.""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    factor = torch.clamp(max_norm / total, max=1.0)
    return {name: g * factor for name, g in grads.items()}, total


@mistake("clips-only-above-max-norm", hint=2, message="""\
You scale only when the norm is above max_norm; torch computes the factor
min(1, max_norm / (total + 1e-6)) on every call, so a norm a hair below max_norm is still scaled
(by about max_norm / (max_norm + 1e-6)). Use the one formula in every case.""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    if total > max_norm:
        return {name: g * (max_norm / (total + 1e-6)) for name, g in grads.items()}, total
    return {name: g.clone() for name, g in grads.items()}, total


@mistake("norm-after-clipping", hint=2, message="""\
You return the norm AFTER clipping, which is at most max_norm by construction. Return the norm
from before clipping, as torch's clip_grad_norm_ does: it is what shows how large the gradients
really were (and what a training loop logs to spot spikes).""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    factor = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    clipped = {name: g * factor for name, g in grads.items()}
    return clipped, global_norm(clipped, norm_type)


@mistake("returns-the-factor", hint=3, message="""\
The second value you return is the clipping factor; clip_grad_norm returns the total norm of the
gradients before clipping (the factor is max_norm / (total + 1e-6), capped at 1).""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    factor = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    return {name: g * factor for name, g in grads.items()}, factor


@mistake("scaled-in-place", hint=2, message="""\
You scale the gradients in place (g.mul_(factor)), as torch's clip_grad_norm_ does to each
parameter's .grad. This function must leave `grads` unchanged and return new tensors,
{name: g * factor ...}, so that the caller decides what to keep.""")
def clip_grad_norm(grads, max_norm, norm_type=2.0):
    total = global_norm(grads, norm_type)
    factor = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads.values():
        g.mul_(factor)
    return grads, total
