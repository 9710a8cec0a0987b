"""The capstone's training doctor: cheap probes of the pieces before training, and after it the
findings of lesson 27's health.py on the run's history and those probes."""
import copy
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

import torch

OVERFIT_STEPS = 30


def health_module(root):
    """Lesson 27's health.py: the findings a training history supports."""
    spec = importlib.util.spec_from_file_location(
        "capstone_health", Path(root) / "solutions" / "27-training-loop" / "health.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Checkup:
    """What the probes found before training."""
    init: dict                              # init_report on a training batch
    leaks: list = field(default_factory=list)      # what the leak probes found, in words
    clipping: str = None                    # what the clipping probe found
    overfit: list = field(default_factory=list)    # losses on one batch, trained again and again


def examine(health, pieces, loop, params, train_data, config, vocab_size):
    """Run every probe with the pieces: the loss at init (lesson 24's init_report), the causal mask
    (the model of lesson 12 or 30), the shift (lesson 23's get_batch), clipping (lesson 26), and whether the
    training step (lesson 27) can drive the loss down on one batch seen again and again."""
    context, n_heads = config["context"], config["n_heads"]
    x, y = pieces.get_batch(train_data, config["batch_size"], context,
                            torch.Generator().manual_seed(0))
    with torch.no_grad():
        init = pieces.init_report(params, x, y, n_heads)
    logits_fn = lambda ids: pieces.forward(ids, params, n_heads)
    leaks = [found for found in (health.mask_leak(logits_fn, x[:2], vocab_size),
                                 health.shift_leak(pieces.get_batch, train_data, 4, context))
             if found]
    clipping = health.clipping_gap(pieces.clip_grad_norm, config["max_norm"])
    one_window = train_data[:context + 1]          # get_batch can only ever draw this window
    probe = config | {"batch_size": 4, "warmup_steps": 0, "max_steps": OVERFIT_STEPS,
                      "min_lr": config["max_lr"], "dropout": 0.0}
    run = loop.new_run(copy.deepcopy(params), 0)
    overfit = [loop.train_step(run, one_window, probe)["loss"] for _ in range(OVERFIT_STEPS)]
    return Checkup(init, leaks, clipping, overfit)


def findings(health, history, checkup, vocab_size, floor, max_norm):
    """What went wrong, with its evidence and the lessons to revisit (nothing on a healthy run)."""
    return health.diagnose(history, vocab_size, floor, overfit=checkup.overfit,
                           leaks=checkup.leaks, max_norm=max_norm, clipping=checkup.clipping)
