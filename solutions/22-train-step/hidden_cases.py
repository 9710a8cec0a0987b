"""Hidden cases for lesson 22 (one training step with AdamW by hand)."""
import torch

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("Apply the update above to every parameter with t = s + 1",
            cases=("example 1", "first step", "a later step", "tiny gradients"),
            broken_by=("no-bias-correction", "bias-correction-before-count", "eps-inside-sqrt",
                       "betas-swapped", "v-not-squared", "wrong-sign", "update-with-old-moments",
                       "corrected-step-size")),
    promise('new_state = {"step": s + 1, "m": ..., "v": ...} holding the updated, uncorrected '
            "moments", cases=("a later step", "five steps", "first step"),
            broken_by=("moments-not-saved", "corrected-moments-saved", "step-not-counted")),
    promise("Decay every parameter (biases and norms included), as torch.optim.AdamW does with a "
            "single parameter group.", cases=("strong weight decay", "first step"),
            broken_by=("l2-not-decoupled", "decay-after-update", "decay-without-lr",
                       "decay-lr-squared")),
    promise("its gradient with respect to every parameter by autograd; and one adamw_step with all "
            "the given settings.",
            cases=("train step, one block", "train step, two blocks, later step",
                   "the same batch four times"),
            broken_by=("defaults-in-train-step", "no-requires-grad", "shifted-before-the-loss")),
    promise("where loss is the loss BEFORE the update, as a Python float",
            cases=("train step, one block", "five steps"),
            broken_by=("loss-after-step", "loss-as-tensor")),
    promise("Leave params, grads and state unchanged: no in-place operations on them.",
            cases=("first step", "a later step"), broken_by=("changes-its-inputs",)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(('t = state["step"] + 1', "bias correction", "new dicts", "never assign",
                          "one parameter"),
                         ("decay", "weight_decay", "+ eps", "sqrt(v_hat)", "old `p`", "moments",
                          "leaf", "autograd.grad", "detach"),
                         ("b1**t", "b1", "betas", "g * g", "p - lr", "new m", "state", "loss.item()",
                          "adamw_step(params, grads, state, lr, betas, eps, weight_decay)", "train")),
            functions=("adamw_step", "train_step", "train"),
            forbidden={"optim": "write the AdamW update by hand (torch.optim is what this lesson "
                                "is checked against)",
                       "AdamW": "write the AdamW update by hand",
                       "Adam": "write the AdamW update by hand"},
            timeout=10.0)

V, D, P = 13, 8, 10   # vocabulary, width (2 heads of 4), positions: distinct from B and T below


def tensor(rng, *shape, scale=1.0):
    return torch.from_numpy(rng.normal(scale=scale, size=shape))


def gpt_params(rng, n_layers, v=V, d=D, p=P):
    """Random GPT-2 parameters under their state-dict names, float64."""
    out = {"transformer.wte.weight": tensor(rng, v, d, scale=0.5),
           "transformer.wpe.weight": tensor(rng, p, d, scale=0.3)}
    for i in range(n_layers):
        pre = f"transformer.h.{i}."
        for ln in ("ln_1", "ln_2"):
            out[pre + ln + ".weight"] = torch.from_numpy(rng.uniform(0.6, 1.4, size=d))
            out[pre + ln + ".bias"] = tensor(rng, d, scale=0.1)
        for name, (n_in, n_out) in {"attn.c_attn": (d, 3 * d), "attn.c_proj": (d, d),
                                    "mlp.c_fc": (d, 4 * d), "mlp.c_proj": (4 * d, d)}.items():
            out[pre + name + ".weight"] = tensor(rng, n_in, n_out, scale=n_in ** -0.5)
            out[pre + name + ".bias"] = tensor(rng, n_out, scale=0.1)
    out["transformer.ln_f.weight"] = torch.from_numpy(rng.uniform(0.6, 1.4, size=d))
    out["transformer.ln_f.bias"] = tensor(rng, d, scale=0.1)
    return out


def tokens(rng, b, t, v=V):
    return torch.from_numpy(rng.integers(0, v, size=(b, t))).to(torch.int64)


def small_params(rng):
    """A few parameters of different shapes, for adamw_step on its own."""
    return {"w": tensor(rng, 5, 3), "b": tensor(rng, 3), "gain": torch.from_numpy(rng.uniform(0.5, 2.0, size=4))}


def zero_state(params):
    return {"step": 0, "m": {k: torch.zeros_like(p) for k, p in params.items()},
            "v": {k: torch.zeros_like(p) for k, p in params.items()}}


def mid_state(rng, params, step, g_scale=1.0):
    """A state after `step` steps: moments of the size the gradients give, v > 0."""
    return {"step": step,
            "m": {k: tensor(rng, *p.shape, scale=0.3 * g_scale) for k, p in params.items()},
            "v": {k: torch.from_numpy((g_scale * rng.uniform(0.2, 1.2, size=p.shape)) ** 2)
                  for k, p in params.items()}}


def grads_like(rng, params, scale=1.0):
    return {k: tensor(rng, *p.shape, scale=scale) for k, p in params.items()}


def cases(rng):
    # --- adamw_step ---
    p = small_params(rng)
    yield case("first step", call("adamw_step", p, grads_like(rng, p), zero_state(p), 0.01),
               probe="three parameters, step 0 with zero moments, lr 0.01, default betas, eps "
                     "and weight_decay", hint=2)
    p = small_params(rng)
    yield case("a later step",
               call("adamw_step", p, grads_like(rng, p), mid_state(rng, p, 6), 0.003,
                    betas=(0.8, 0.95), eps=1e-6, weight_decay=0.05),
               probe="a state after 6 steps (random moments), lr 0.003, betas (0.8, 0.95), eps "
                     "1e-6, weight_decay 0.05", hint=2)
    p = small_params(rng)
    yield case("strong weight decay",
               call("adamw_step", p, grads_like(rng, p), mid_state(rng, p, 2), 0.1,
                    weight_decay=0.5),
               probe="lr 0.1 and weight_decay 0.5, so the order of decay and step shows", hint=2)
    p = small_params(rng)
    yield case("tiny gradients",
               call("adamw_step", p, grads_like(rng, p, scale=1e-4), mid_state(rng, p, 3, 1e-4),
                    0.02, eps=1e-8),
               probe="gradients and moments around 1e-4, so that sqrt(v_hat) is comparable to where "
                     "eps goes", hint=2)
    p = small_params(rng)
    yield case("no weight decay",
               call("adamw_step", p, grads_like(rng, p), zero_state(p), 0.05, betas=(0.7, 0.9),
                    weight_decay=0.0),
               probe="weight_decay 0, betas (0.7, 0.9): the Adam step alone", hint=3)

    # --- train_step ---
    p = gpt_params(rng, 1)
    yield case("train step, one block",
               call("train_step", p, zero_state(p), tokens(rng, 3, 7), 2, 0.01),
               probe="a 1-block GPT (V 13, D 8, 2 heads), a batch of 3 sequences of 7 tokens, "
                     "first step", hint=3)
    p = gpt_params(rng, 2)
    yield case("train step, two blocks, later step",
               call("train_step", p, mid_state(rng, p, 4, 0.1), tokens(rng, 2, 9), 4, 0.004,
                    betas=(0.85, 0.98), weight_decay=0.1),
               probe="a 2-block GPT with 4 heads, 2 sequences of 9 tokens, a state after 4 steps",
               hint=3)
    p = gpt_params(rng, 0)
    yield case("train step, no blocks",
               call("train_step", p, zero_state(p), tokens(rng, 4, 5), 2, 0.02),
               probe="a GPT with no blocks (embeddings, final norm, tied output), 4 sequences of 5",
               hint=3)

    # --- several steps ---
    p = gpt_params(rng, 1)
    batches = [tokens(rng, 3, 8) for _ in range(5)]
    yield case("five steps", call("train", p, batches, 2, 0.01),
               probe="train: 5 steps of a 1-block GPT from a fresh state, a new batch each step",
               hint=3)
    p = gpt_params(rng, 2)
    batch = tokens(rng, 2, 6)
    yield case("the same batch four times", call("train", p, [batch] * 4, 4, 0.03, weight_decay=0.2),
               probe="train: 4 steps on one batch of a 2-block GPT, lr 0.03, weight_decay 0.2: the "
                     "losses fall", hint=3)
