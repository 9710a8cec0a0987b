"""Hidden cases for lesson 27 (the training loop, evaluation and checkpoints).

The texts are drawn from a small Markov chain (each token is usually a fixed function of the one
before it), so a model can learn them and the lowest loss they allow is known: the training
doctor (health.py, shared with the capstone) reads a learner's history against it.
"""
import importlib.util
import math
from pathlib import Path

import numpy as np
import torch

from grader.judge.compare import compare
from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("train_step(run, data, config): one step, as in steps 1 to 6 above",
            cases=("a single step", "eight steps", "clipping at work", "example 1"),
            broken_by=("model-reads-the-targets", "not-clipped", "schedule-a-step-ahead")),
    promise("The gradient is this step's alone.",
            cases=("eight steps", "one batch again and again", "example 1"),
            broken_by=("gradients-accumulate", "gradients-zeroed-after-backward")),
    promise('Afterwards run["params"] holds the new values as leaf tensors that record gradients, '
            'run["opt"] the new state, and run["step"] is one more.',
            cases=("eight steps", "a single step", "past the end of the schedule"),
            broken_by=("update-not-written-back",)),
    promise("each computed under torch.no_grad() with no dropout",
            cases=("evaluation", "example 2"),
            broken_by=("evaluated-with-gradients", "evaluated-with-dropout")),
    promise('Return {"loss": mean, "perplexity": math.exp(mean)}.',
            cases=("evaluation", "example 2"),
            broken_by=("perplexity-mean-of-exps", "perplexity-in-bits")),
    promise('steps until run["step"] == steps; after each step that leaves run["step"] a '
            "multiple of eval_every, and after the last, record",
            cases=("eight steps", "resumed during the warmup", "example 1", "example 3"),
            broken_by=("steps-more-instead-of-up-to", "evaluates-before-the-step",
                       "validation-on-the-training-split")),
    promise("A run resumed from a checkpoint gives the same history as one that never stopped, "
            "bit for bit, dropout included.",
            cases=("resumed from a checkpoint", "resumed during the warmup", "example 3"),
            broken_by=("batch-generator-not-saved", "global-generator-not-saved",
                       "optimizer-state-not-saved", "step-not-saved")),
    promise("gpt2_logits(params, x, n_heads, dropout)", cases=("dropout",),
            broken_by=("no-dropout-in-training",)),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("p.grad = None", "backward", "get_batch", "lr_at", "run[\"step\"]", "leaf",
                  "copy_", "step"),
                 ("torch.no_grad", "dropout", "eval_seed", "perplexity", "math.exp", "evaluate",
                  "validation"),
                 ("torch.save", "torch.load", "get_state", "set_state", "get_rng_state",
                  "set_rng_state", "checkpoint", "while run[\"step\"] < steps",
                  "eval_every")),
    functions=("train_step", "evaluate", "save_checkpoint", "load_checkpoint", "train",
               "run_training", "run_resumed", "watched_evaluate"),
    forbidden={"optim": "train with the lesson's own adamw_step and lr_at (torch.optim is what "
                        "lessons 22 and 25 are checked against)",
               "clip_grad_norm_": "clip with the lesson's clip_grad_norm"},
    timeout=20.0,
)

_spec = importlib.util.spec_from_file_location("lesson_27_health", Path(__file__).with_name("health.py"))
health = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(health)

V, D, P = 11, 8, 8
KEEP = 0.8    # how often the chain follows its rule (next = 3 * token + 2 mod V)


def chain(rng, n):
    """n tokens of the chain: each is 3 * (the one before) + 2 mod V with probability KEEP, else
    drawn uniformly."""
    out = [int(rng.integers(V))]
    for _ in range(n - 1):
        out.append((3 * out[-1] + 2) % V if rng.random() < KEEP else int(rng.integers(V)))
    return torch.tensor(out, dtype=torch.int64)


def floor():
    """The chain's entropy per token, in nats: no model can score lower on text it has not seen."""
    top = KEEP + (1 - KEEP) / V
    other = (1 - KEEP) / V
    return -(top * math.log(top) + (V - 1) * other * math.log(other))


def gpt2_params(rng, n_layers=1):
    """GPT-2's initialisation (std 0.02, the residual projections scaled), float64."""
    normal = lambda *shape, s=0.02: torch.from_numpy(rng.normal(scale=s, size=shape))
    p = {"transformer.wte.weight": normal(V, D), "transformer.wpe.weight": normal(P, D)}
    for i in range(n_layers):
        pre = f"transformer.h.{i}."
        for ln in ("ln_1", "ln_2"):
            p[pre + ln + ".weight"] = torch.ones(D, dtype=torch.float64)
            p[pre + ln + ".bias"] = torch.zeros(D, dtype=torch.float64)
        s = 0.02 / math.sqrt(2 * n_layers)
        for name, (n_in, n_out, std) in {"attn.c_attn": (D, 3 * D, 0.02), "attn.c_proj": (D, D, s),
                                         "mlp.c_fc": (D, 4 * D, 0.02),
                                         "mlp.c_proj": (4 * D, D, s)}.items():
            p[pre + name + ".weight"] = normal(n_in, n_out, s=std)
            p[pre + name + ".bias"] = torch.zeros(n_out, dtype=torch.float64)
    p["transformer.ln_f.weight"] = torch.ones(D, dtype=torch.float64)
    p["transformer.ln_f.bias"] = torch.zeros(D, dtype=torch.float64)
    return p


def config(**changes):
    base = dict(n_heads=2, batch_size=3, context=5, max_lr=1e-2, min_lr=1e-3, warmup_steps=2,
                max_steps=10, max_norm=1.0, weight_decay=0.1, dropout=0.0, eval_every=4,
                eval_batches=2, eval_seed=7)
    return base | changes


def what_the_curve_says(history, reference, overfit=False):
    """The training doctor's findings on the learner's history that the reference's does not
    share, as one sentence (or ''). On one repeated batch the history is the overfitting probe,
    and a loss near zero is the point, not a leak."""
    def findings(h):
        return health.diagnose(h, V, None if overfit else floor(),
                               overfit=health.losses(h) if overfit else None)
    try:
        theirs = {f.problem for f in findings(reference)}
        news = [str(f) for f in findings(history) if f.problem not in theirs]
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
        return ""
    return ". The loss curve says: " + " ".join(news) if news else ""


def history_check(got, expected, calls):
    """The reference's history; when it differs, where, and what the training doctor reads in it."""
    problem = compare(expected[0], got[0], SPEC.rtol, SPEC.atol)
    if problem is None:
        return None
    return problem + what_the_curve_says(got[0], expected[0])


def overfit_check(got, expected, calls):
    """One batch over and over: the loss must fall as the reference's does."""
    problem = compare(expected[0], got[0], SPEC.rtol, SPEC.atol)
    if problem is None:
        return None
    return problem + what_the_curve_says(got[0], expected[0], overfit=True)


def resume_check(got, expected, calls):
    """A resumed run repeats the uninterrupted one bit for bit, and both are the reference's; when
    they part, the first step where they do says what the checkpoint lost."""
    whole, resumed = got
    problem = compare(expected[0], whole, SPEC.rtol, SPEC.atol)
    if problem:
        return "the uninterrupted run: " + problem
    if compare(whole, resumed, 0, 0) is None:
        return None
    stop = calls[1].args[5]
    try:
        return f"resumed from its checkpoint at step {stop}, the run parts from the one that never " \
               f"stopped: {what_the_resume_lost(whole['steps'], resumed['steps'], stop)}"
    except (KeyError, TypeError, IndexError):
        return f"the resumed run differs from the uninterrupted one: {compare(whole, resumed, 0, 0)}"


def what_the_resume_lost(whole, resumed, stop):
    """Where two runs' step records first differ, and what a checkpoint that lost it would show."""
    if len(resumed) > stop and resumed[stop]["step"] <= stop:
        return (f"the first step after the resume is numbered {resumed[stop]['step']}, not "
                f"{stop + 1}: the step count started over, so the checkpoint lost run[\"step\"] (and "
                "with it the schedule's place)")
    if len(resumed) > len(whole):
        return (f"it took {len(resumed)} steps where the run takes {len(whole)}: train must stop "
                "when run[\"step\"] reaches `steps` (while run[\"step\"] < steps)")
    first = next((i for i, (a, b) in enumerate(zip(whole, resumed)) if a != b), len(resumed))
    if first < stop:
        return f"step {first + 1}, before the checkpoint, already differs"
    if first >= len(resumed):
        return f"it took {len(resumed)} steps where the run takes {len(whole)}"
    a, b = whole[first], resumed[first]
    if first > stop:
        return (f"step {stop + 1}, the first after the resume, computed the same loss, but its "
                f"update differed (step {first + 1} has another loss): the checkpoint lost the "
                "optimizer state (AdamW's step and moments)")
    if a["lr"] != b["lr"]:
        return (f"step {first + 1}, the first after the resume, used the rate {b['lr']:.6g} instead "
                f"of {a['lr']:.6g}: the schedule lost its place")
    return (f"step {first + 1}, the first after the resume, already has another loss "
            f"({b['loss']!r} instead of {a['loss']!r}): it saw other parameters, another batch or "
            "other dropout masks, so the checkpoint lost the parameters' values, the batch "
            "generator's state (run[\"rng\"].get_state()) or torch's global generator state "
            "(torch.get_rng_state())")


def seeds(rng):
    return int(rng.integers(0, 2**31)), int(rng.integers(0, 2**31))


def texts(rng, n_train=120, n_val=40):
    return chain(rng, n_train), chain(rng, n_val)


def cases(rng):
    train_text, val_text = texts(rng)
    yield case("eight steps", call("run_training", gpt2_params(rng), train_text, val_text,
                                   config(max_steps=8), 8, *seeds(rng)),
               probe="8 steps of a 1-block GPT (V 11, width 8, context 5, batches of 3), warmup 2, "
                     "evaluation every 4 steps", check=history_check, hint=1)
    yield case("a single step", call("run_training", gpt2_params(rng), *texts(rng), config(), 1,
                                     *seeds(rng)),
               probe="one step: its record, then the evaluation after the last step", hint=1,
               check=history_check)
    yield case("dropout", call("run_training", gpt2_params(rng), *texts(rng),
                               config(dropout=0.2, eval_every=3), 5, *seeds(rng)),
               probe="5 steps with dropout 0.2 in training (and none in evaluation), evaluation "
                     "every 3 steps and after the last", check=history_check, hint=2)
    yield case("clipping at work", call("run_training", gpt2_params(rng), *texts(rng),
                                        config(max_norm=0.05, weight_decay=0.3), 4, *seeds(rng)),
               probe="max_norm 0.05, so every step clips (the record keeps the norm from before "
                     "clipping), weight_decay 0.3", check=history_check, hint=1)
    yield case("past the end of the schedule",
               call("run_training", gpt2_params(rng), *texts(rng),
                    config(n_heads=4, warmup_steps=2, max_steps=4, eval_every=3), 6, *seeds(rng)),
               probe="4 heads, warmup 2, max_steps 4, but 6 steps: the last step at min_lr",
               check=history_check, hint=1)
    one = chain(rng, 6)      # context + 1 tokens: every batch is this one window
    yield case("one batch again and again",
               call("run_training", gpt2_params(rng), one, one,
                    config(max_lr=3e-2, min_lr=3e-2, warmup_steps=0, max_steps=10, eval_every=10),
                    10, *seeds(rng)),
               probe="a text of exactly context + 1 tokens, so every batch is the same window: 10 "
                     "steps at a constant rate must drive its loss far down",
               check=overfit_check, hint=1)
    yield case("evaluation", call("watched_evaluate", gpt2_params(rng), chain(rng, 60),
                                  config(dropout=0.3, eval_batches=3)),
               probe="evaluate alone, with dropout 0.3 in the config: 3 batches, each forward "
                     "pass under torch.no_grad and without dropout", hint=2)
    args = gpt2_params(rng), *texts(rng), config(dropout=0.1, max_steps=7, eval_every=3)
    first, second = seeds(rng)
    yield case("resumed from a checkpoint",
               call("run_training", *args, 7, first, second),
               call("run_resumed", *args, 7, 3, first, second),
               probe="7 steps with dropout 0.1, and the same run stopped at step 3 and resumed "
                     "from its checkpoint: both must give the same history, bit for bit",
               check=resume_check, hint=3)
    args = gpt2_params(rng), *texts(rng), config(warmup_steps=4, eval_every=2, max_steps=6)
    first, second = seeds(rng)
    yield case("resumed during the warmup",
               call("run_training", *args, 5, first, second),
               call("run_resumed", *args, 5, 2, first, second),
               probe="5 steps, stopped at step 2 (in the warmup) and resumed from its checkpoint: "
                     "the schedule, the optimizer state and the data order carry on",
               check=resume_check, hint=3)
