"""Hidden cases for lesson 24 (GPT-2's initialisation, and the loss at initialisation)."""
import math

import numpy as np
import torch

from grader.judge.compare import compare
from grader.lessons.authoring import Spec, call, case, promise
from grader.runner.child.wire import Tensor

PROMISES = (
    promise("biases (names ending .bias) zeros; the gains ln_1.weight, ln_2.weight and "
            "ln_f.weight ones", cases=("two blocks", "one block", "example 1"),
            broken_by=("biases-drawn", "gains-zero")),
    promise("every other weight drawn with one call torch.randn(*shape, generator=rng, "
            "dtype=torch.float64) * s, in the order of param_shapes, with s = std",
            cases=("two blocks", "no blocks", "three blocks, another std", "example 1"),
            broken_by=("std-one", "fan-in-init", "positions-not-drawn", "drawn-in-float32")),
    promise("except attn.c_proj.weight and mlp.c_proj.weight, which get s = std / math.sqrt(2 * "
            "n_layers)", cases=("two blocks", "one block", "three blocks, another std"),
            broken_by=("no-residual-scaling", "scaled-without-the-two", "every-block-weight-scaled")),
    promise("Draw nothing else (no output layer: it is tied to wte).",
            cases=("two blocks", "no blocks", "example 1"),
            broken_by=("tied-head-drawn-again", "untied-head")),
    promise("the loss of the model on the batch (batch_loss(gpt2_logits(params, x, n_heads), y))",
            cases=("a trained-looking model", "the loss at init is close to ln V"),
            broken_by=("targets-shifted-again",)),
    promise('ln V with V the number of rows of params["transformer.wte.weight"], and loss - ln V',
            cases=("a vocabulary larger than the batch uses", "a trained-looking model", "example 2"),
            broken_by=("log2-of-vocab", "width-for-vocab", "vocab-from-the-batch", "gap-reversed")),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("param_shapes", "zeros", "ones", "bias", "gain", "torch.randn", "generator=rng",
                  "order"),
                 ("std / math.sqrt(2 * n_layers)", "c_proj", "residual", "tied", "wte", "output layer",
                  "draw", "divides by zero"),
                 ("init_report", "math.log", "shape[0]", "uniform", "gap", "no_grad", "batch_loss")),
    functions=("gpt2_init", "init_report", "init_from_seed", "report_at_init"),
    timeout=10.0,
)

LN_GAIN = ("ln_1.weight", "ln_2.weight", "ln_f.weight")


def values(v):
    return np.asarray(v.array if isinstance(v, Tensor) else v, dtype=float)


def target_std(name, std, n_layers):
    """The standard deviation GPT-2 draws `name` with (0 for what is not drawn)."""
    if name.endswith(".bias") or name.endswith(LN_GAIN):
        return 0.0
    return std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std


def statistics_check(got, expected, calls):
    """Every parameter has the right shape and the right distribution (by its mean and standard
    deviation), whatever order the draws were made in."""
    got, expected = got[0], expected[0]
    if not isinstance(got, dict) or got.keys() != expected.keys():
        return compare(expected, got, 0, 0)
    _, _, n_layers, _, _, std = calls[0].args
    for name, want in expected.items():
        g = values(got[name])
        if g.shape != want.array.shape:
            return f"{name} has shape {g.shape}, expected {want.array.shape}"
        if name.endswith(".bias") and np.any(g != 0):
            return f"{name} is not all zeros: biases start at zero"
        if name.endswith(LN_GAIN) and np.any(g != 1):
            return f"{name} is not all ones: a layer norm's gain starts at one"
        s = target_std(name, std, n_layers)
        if s and not (0.9 * s < g.std() < 1.1 * s and abs(g.mean()) < 0.1 * s):
            return (f"{name} has mean {g.mean():.3g} and standard deviation {g.std():.4g}; GPT-2 "
                    f"draws it from a normal distribution with mean 0 and standard deviation "
                    f"{s:.4g}" + (" (std / sqrt(2 * n_layers): it projects into the residual "
                                  "stream)" if name.endswith("c_proj.weight") else ""))
    return None


def draws_check(got, expected, calls):
    """The reference's parameters exactly; when they differ but every name, shape and constant is
    right, say that the draws are what differs."""
    problem = compare(expected[0], got[0], SPEC.rtol, SPEC.atol)
    if problem is None or not isinstance(got[0], dict) or got[0].keys() != expected[0].keys():
        return problem
    drawn = [n for n in expected[0] if not (n.endswith(".bias") or n.endswith(LN_GAIN))]
    constants_right = all(compare(expected[0][n], got[0][n], 0, 0) is None
                          for n in expected[0] if n not in drawn)
    shapes_right = all(values(got[0][n]).shape == expected[0][n].array.shape for n in drawn)
    if constants_right and shapes_right:
        return (f"{problem}. Every name, shape, bias and gain is right, so the draws differ: one "
                "torch.randn(*shape, generator=rng, dtype=torch.float64) per weight, in the order "
                "of param_shapes, times its standard deviation (nothing drawn for biases and gains)")
    return problem


def near_uniform(got, expected, calls):
    """The loss of the learner's freshly initialised model is within 0.1 nats of ln V."""
    problem = compare(expected[0], got[0], SPEC.rtol, SPEC.atol)
    if problem is None:
        return None
    report = got[0]
    v = calls[0].args[0]
    loss = report.get("loss") if isinstance(report, dict) else None
    if isinstance(loss, float) and abs(loss - math.log(v)) > 0.1:
        return (f"{problem}. At initialisation your model's loss is {loss:.4g}, but ln V = "
                f"{math.log(v):.4g}: a freshly initialised GPT should be close to a uniform guess. "
                "A loss far above it means over-confident logits: weights drawn too large")
    return problem


def tokens(rng, b, t, v):
    return torch.from_numpy(rng.integers(0, v, size=(b, t)).astype(np.int64))


def random_params(rng, v, d, n_layers, p):
    """Parameters far from any initialisation (so that init_report has something to measure)."""
    out = {}
    for name, shape in (("transformer.wte.weight", (v, d)), ("transformer.wpe.weight", (p, d))):
        out[name] = torch.from_numpy(rng.normal(scale=0.8, size=shape))
    for i in range(n_layers):
        pre = f"transformer.h.{i}."
        for ln in ("ln_1", "ln_2"):
            out[pre + ln + ".weight"] = torch.from_numpy(rng.uniform(0.6, 1.4, size=d))
            out[pre + ln + ".bias"] = torch.from_numpy(rng.normal(scale=0.1, size=d))
        for name, (n_in, n_out) in {"attn.c_attn": (d, 3 * d), "attn.c_proj": (d, d),
                                    "mlp.c_fc": (d, 4 * d), "mlp.c_proj": (4 * d, d)}.items():
            out[pre + name + ".weight"] = torch.from_numpy(rng.normal(scale=n_in ** -0.5,
                                                                      size=(n_in, n_out)))
            out[pre + name + ".bias"] = torch.from_numpy(rng.normal(scale=0.1, size=n_out))
    out["transformer.ln_f.weight"] = torch.from_numpy(rng.uniform(0.6, 1.4, size=d))
    out["transformer.ln_f.bias"] = torch.from_numpy(rng.normal(scale=0.1, size=d))
    return out


def seed(rng):
    return int(rng.integers(0, 2**31))


def cases(rng):
    # --- gpt2_init ---
    yield case("two blocks", call("init_from_seed", 11, 8, 2, 6, seed(rng)),
               probe="V 11, width 8, 2 blocks, 6 positions, std 0.02: every parameter, drawn in "
                     "the order of param_shapes", check=draws_check, hint=1)
    yield case("one block", call("init_from_seed", 9, 6, 1, 5, seed(rng)),
               probe="V 9, width 6, 1 block: the residual projections get std / sqrt(2)", check=draws_check, hint=2)
    yield case("three blocks, another std", call("init_from_seed", 7, 4, 3, 10, seed(rng), 0.05),
               probe="V 7, width 4, 3 blocks, 10 positions, std 0.05: the residual projections "
                     "get 0.05 / sqrt(6)", check=draws_check, hint=2)
    yield case("no blocks", call("init_from_seed", 13, 5, 0, 4, seed(rng)),
               probe="n_layers 0: only the embeddings and the final layer norm, and no c_proj: "
                     "computing std / sqrt(2 * n_layers) outside the loop divides by zero", check=draws_check, hint=2)
    yield case("the distribution of every parameter",
               call("init_from_seed", 400, 64, 4, 64, seed(rng), 0.02),
               probe="V 400, width 64, 4 blocks: each parameter's mean and standard deviation "
                     "(0.02, or 0.02 / sqrt(8) for c_proj), whatever the order of the draws",
               check=statistics_check, hint=2)

    # --- init_report ---
    v, d, p = 17, 8, 9
    yield case("a trained-looking model", call("init_report", random_params(rng, v, d, 1, p),
                                                 tokens(rng, 3, 7, v), tokens(rng, 3, 7, v), 2),
               probe="random parameters of a 1-block GPT (V 17), a batch of 3 x 7: the loss, ln V "
                     "and their gap", hint=3)
    x = tokens(rng, 2, 6, 5)
    yield case("a vocabulary larger than the batch uses",
               call("init_report", random_params(rng, 40, 6, 0, 6), x, (x + 1) % 5, 3),
               probe="V 40, but the batch uses only tokens 0 to 4: the uniform loss ln V is about "
                     "the vocabulary, wte.shape[0], not the batch", hint=3)
    v = 23
    yield case("the loss at init is close to ln V",
               call("report_at_init", v, 16, 2, 12, seed(rng), 4, tokens(rng, 4, 12, v),
                    tokens(rng, 4, 12, v)),
               probe="your gpt2_init (V 23, width 16, 2 blocks), then your init_report on 4 x 12 "
                     "random tokens: the gap to ln V is a few hundredths",
               check=near_uniform, hint=3)
    v = 31
    yield case("a model initialised with std 1",
               call("report_at_init", v, 24, 1, 8, seed(rng), 3, tokens(rng, 3, 8, v),
                    tokens(rng, 3, 8, v), 1.0),
               probe="your gpt2_init with std 1.0 (V 31, width 24), then your init_report: far "
                     "larger logits, a loss well above the uniform ln V", hint=3)
