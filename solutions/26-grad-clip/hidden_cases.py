"""Hidden cases for lesson 26 (gradient clipping by global norm)."""
import math

import numpy as np
import torch

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("the p-norm of all the entries of all the tensors, as a 0-d float64 tensor",
            cases=("the global 2-norm", "the 1-norm", "a 3-norm", "example 1", "example 2"),
            broken_by=("sum-of-norms", "squared-norm", "root-mean-square", "norm-type-ignored")),
    promise("for math.inf, the largest absolute entry", cases=("the infinity norm", "example 3"),
            broken_by=("infinity-through-the-power",)),
    promise("factor = min(1, max_norm / (total + 1e-6))",
            cases=("tiny gradients and eps", "a norm just below max_norm",
                   "large gradients are clipped", "example 4"),
            broken_by=("no-eps", "clips-only-above-max-norm", "clipped-values")),
    promise("return (clipped, total): a new dict with the same names, each gradient multiplied by "
            "factor, and total (the norm before clipping, a 0-d tensor)",
            cases=("large gradients are clipped", "example 4", "example 6"),
            broken_by=("norm-after-clipping", "returns-the-factor", "per-tensor-clipping")),
    promise("here grads must stay unchanged", cases=("large gradients are clipped",),
            broken_by=("scaled-in-place",)),
    promise("The same factor for every tensor; never scale a gradient up; all-zero gradients stay "
            "zero (no NaN).",
            cases=("one tensor much larger than the rest", "small gradients are left alone",
                   "example 5", "all-zero gradients"),
            broken_by=("per-tensor-clipping", "scales-up-small-gradients",
                       edit("{name: g * factor for name, g in grads.items()}",
                            "{name: g / total * torch.clamp(total, max=max_norm) "
                            "for name, g in grads.items()}"))),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("global_norm", "one long vector", "vector_norm", "norm_type", "math.inf",
                  "per tensor"),
                 ("factor", "max_norm / (total + 1e-6)", "1e-6", "clamp", "min(1", "scaled up",
                  "same factor", "new tensors", "before clipping"),
                 ("torch.stack", "return", "total", "g * factor")),
    functions=("global_norm", "clip_grad_norm"),
    forbidden={"clip_grad_norm_": "write the clipping yourself: torch's clip_grad_norm_ is what "
                                  "this lesson is checked against",
               "clip_grads_with_norm_": "write the clipping yourself",
               "clip_grad_value_": "write the clipping yourself"},
)

SHAPES = {"transformer.wte.weight": (9, 4), "transformer.h.0.attn.c_attn.weight": (4, 12),
          "transformer.h.0.attn.c_attn.bias": (12,), "transformer.h.0.mlp.c_proj.weight": (16, 4),
          "transformer.ln_f.weight": (4,)}


def gradients(rng, norm, shapes=SHAPES, spread=(0.2, 5.0)):
    """Gradients of the given shapes, each tensor on its own scale, with global 2-norm `norm`."""
    g = {k: np.asarray(rng.normal(size=s)) * rng.uniform(*spread) for k, s in shapes.items()}
    total = math.sqrt(sum(float((a ** 2).sum()) for a in g.values()))
    return {k: torch.from_numpy(np.asarray(a * norm / total)) for k, a in g.items()}


def cases(rng):
    # --- global_norm ---
    yield case("the global 2-norm", call("global_norm", gradients(rng, 7.3)),
               probe="five tensors of different shapes and scales, norm_type 2", hint=1,
               part="global_norm")
    yield case("the 1-norm", call("global_norm", gradients(rng, 2.0), 1.0),
               probe="norm_type 1: the sum of every entry's absolute value", hint=1,
               part="global_norm")
    yield case("a 3-norm", call("global_norm", gradients(rng, 4.0), 3.0),
               probe="norm_type 3: (sum of |g|^3)^(1/3) over every entry", hint=1,
               part="global_norm")
    yield case("the infinity norm", call("global_norm", gradients(rng, 3.0), math.inf),
               probe="norm_type math.inf: the largest absolute entry of any tensor", hint=1,
               part="global_norm")
    one = {"w": torch.from_numpy(rng.normal(size=(3, 5)))}
    yield case("a single tensor", call("global_norm", one), probe="global_norm of one tensor alone: its own vector_norm",
               hint=1, part="global_norm")

    # --- clip_grad_norm ---
    yield case("large gradients are clipped", call("clip_grad_norm", gradients(rng, 12.5), 1.0),
               probe="gradients of global norm 12.5, max_norm 1: all scaled by the same factor, "
                     "about 1 / 12.5",
               hint=2)
    yield case("small gradients are left alone", call("clip_grad_norm", gradients(rng, 0.4), 1.0),
               probe="gradients of global norm 0.4, max_norm 1: never scaled up", hint=2)
    yield case("tiny gradients and eps", call("clip_grad_norm", gradients(rng, 2e-3), 5e-4),
               probe="global norm 0.002 and max_norm 0.0005: the 1e-6 in max_norm / (total + "
                     "1e-6) changes the factor by 0.05%", hint=2)
    yield case("a norm just below max_norm",
               call("clip_grad_norm", gradients(rng, 1e-3 * (1 - 1e-9)), 1e-3),
               probe="global norm a hair below max_norm (0.001): the factor max_norm / (total + "
                     "1e-6) is still applied, about 0.999", hint=2)
    yield case("one tensor much larger than the rest",
               call("clip_grad_norm", gradients(rng, 30.0, spread=(0.01, 0.05)) | {
                   "transformer.wpe.weight": torch.from_numpy(rng.normal(scale=20.0, size=(6, 4)))},
                   2.0),
               probe="one tensor holds almost all of the norm: every tensor is scaled by the same "
                     "factor, the small ones too", hint=2)
    yield case("clipping the 1-norm", call("clip_grad_norm", gradients(rng, 3.0), 2.5, 1.0),
               probe="norm_type 1, max_norm 2.5", hint=1)
    yield case("clipping the infinity norm",
               call("clip_grad_norm", gradients(rng, 6.0), 0.5, math.inf),
               probe="norm_type math.inf, max_norm 0.5: the largest entry becomes 0.5", hint=1)
    zero = {k: torch.zeros(s, dtype=torch.float64) for k, s in SHAPES.items()}
    yield case("all-zero gradients", call("clip_grad_norm", zero, 1.0),
               probe="every gradient is zero: the norm is 0, the 1e-6 keeps the factor finite and "
                     "nothing may become NaN", hint=2)
    scalar = gradients(rng, 9.0, {"a": (), "b": (2, 3, 2), "c": (7,)})
    yield case("a 0-d tensor among them", call("clip_grad_norm", scalar, 3.0),
               probe="a 0-d tensor, a 3-d one and a vector (vector_norm takes any shape), global norm "
                     "9, max_norm 3", hint=1)
