"""Training that explains itself: what a training run's history and a few cheap probes say about
why it went wrong, each finding with its evidence and the lessons to revisit.

Used by lesson 27's checks and by the capstone. The history is what lesson 27's `train` returns:
{"steps": [{"step", "loss", "lr", "grad_norm"}, ...], "evals": [{"step", "train_loss",
"val_loss", "val_perplexity"}, ...]}. Thresholds are wide on purpose: a healthy run, even a short
one, says nothing, and a broken one misses them by a mile.
"""
import math
from dataclasses import dataclass

import torch

INIT_GAP = 0.5          # nats between the first loss and ln V that a sound initialisation never shows
OVERFIT_FALL = 0.3      # the share of its loss a model must lose on one batch it sees again and again
LEAK_SHARE = 0.5        # a loss below this share of the text's floor can only come from the answers
RISE = 0.5              # nats above its best that a run may not end at
GAP_NATS, GAP_SHARE = 0.3, 0.25   # validation above training by both of these: overfitting


@dataclass(frozen=True)
class Finding:
    problem: str        # what went wrong, in a few words
    evidence: str       # the numbers that show it
    causes: str         # what usually does it
    revisit: str        # the lessons to look at again

    def __str__(self):
        return f"{self.problem}: {self.evidence}. Usually: {self.causes}. Revisit {self.revisit}."


def losses(history):
    return [r["loss"] for r in history["steps"]]


def init_finding(first_loss, vocab_size):
    """The loss of the very first step against ln V, the loss of a uniform guess."""
    uniform = math.log(vocab_size)
    if not math.isfinite(first_loss) or abs(first_loss - uniform) <= INIT_GAP:
        return None
    return Finding("the loss at step 0 is far from ln V",
                   f"the first loss is {first_loss:.3f} but ln V = ln {vocab_size} = {uniform:.3f}, "
                   "what a freshly initialised model should score",
                   "weights drawn too large (std 1 instead of 0.02), logits scaled wrongly, or a "
                   "softmax (or cross-entropy) over the wrong axis, which gives ln T instead of ln V",
                   "lesson 24 (initialisation) and lesson 13 (the loss)")


def overfit_finding(probe_losses):
    """Losses of a model trained again and again on one batch: a working loop drives them down."""
    if not probe_losses:
        return None
    first, last = probe_losses[0], min(probe_losses[-3:])
    if math.isfinite(last) and last < (1 - OVERFIT_FALL) * first:
        return None
    return Finding("the model cannot learn even a single batch",
                   f"trained {len(probe_losses)} times on the same batch, its loss went from "
                   f"{first:.3f} to {probe_losses[-1]:.3f}; a working training step drives it "
                   "far down",
                   "the update never reaches the parameters (a step computed but not written "
                   "back), gradients that are zeroed after backward() instead of before it, or a "
                   "graph cut by .detach() or .item() before the loss",
                   "lesson 27 (the training step) and lesson 22 (the AdamW step)")


def leak_finding(history, floor, probes=()):
    """The model reads the answers: a leak probe caught it, or a loss (training or validation)
    fell far below what the text allows."""
    low = []
    if floor is not None:
        seen = [x for x in losses(history) if math.isfinite(x)]
        recent = seen[-max(1, len(seen) // 10):]
        where = [(sum(recent) / len(recent), "training")] if recent else []
        where += [(history["evals"][-1]["val_loss"], "validation")] if history["evals"] else []
        low = [(loss, split) for loss, split in where if loss < LEAK_SHARE * floor]
    if not low and not probes:
        return None
    evidence = list(probes)
    if low:
        loss, split = min(low)
        evidence.append(f"the {split} loss reached {loss:.3f} nats per token, but the text's own "
                        f"randomness allows no less than {floor:.3f}: no model can do that "
                        "honestly")
    return Finding("the model sees the tokens it must predict", "; ".join(evidence),
                   "a causal mask that lets positions read the future, inputs that are the "
                   "targets, or targets shifted twice",
                   "lessons 03 and 12 (the causal mask) and lesson 23 (inputs and targets)")


def divergence_finding(history, max_norm=None, clipping=None):
    """A loss that turns NaN, or ends far above the best it reached (`clipping`: what the
    clipping probe found, if anything)."""
    seen = losses(history)
    if not seen:
        return None
    norms = [r["grad_norm"] for r in history["steps"]]
    peak_lr = max(r["lr"] for r in history["steps"])
    bad = next((i for i, x in enumerate(seen) if not math.isfinite(x)), None)
    best = min(range(len(seen) if bad is None else bad), key=seen.__getitem__, default=None)
    if bad is None:
        tail = seen[-max(1, len(seen) // 10):]
        end = sum(tail) / len(tail)
        if best is None or end <= seen[best] + RISE:
            return None
        what = (f"the loss rose from its best, {seen[best]:.3f} at step {best + 1}, to "
                f"{end:.3f} at the end")
    else:
        what = f"the loss became {seen[bad]} at step {bad + 1}"
    finite = [n for n in norms if math.isfinite(n)]
    clip = (f"; gradient norms reached {max(finite):.3g}" if finite else "") + (
        f" (max_norm {max_norm})" if max_norm is not None else "") + (
        f"; {clipping}" if clipping else "")
    return Finding("the training diverged",
                   f"{what}, with a peak learning rate of {peak_lr:.3g}{clip}",
                   "a learning rate too high for the model, or gradients that are not clipped "
                   "(a spike then throws the weights far away)",
                   "lesson 25 (the schedule) and lesson 26 (clipping)")


def gap_finding(history):
    """Validation far above training: memorising the training text, or judging on another text."""
    evals = history["evals"]
    if not evals:
        return None
    last = evals[-1]
    train, val = last["train_loss"], last["val_loss"]
    if not (val - train > GAP_NATS and val - train > GAP_SHARE * train):
        return None
    return Finding("the validation loss is far above the training loss",
                   f"at step {last['step']} the training split scores {train:.3f} and the "
                   f"validation split {val:.3f}",
                   "overfitting (a training split too small for the model or the number of steps: "
                   "it learns its text by heart), or a validation text unlike the training text "
                   "(another split, another source)",
                   "lesson 23 (the split) and lesson 27 (evaluation)")


def diagnose(history, vocab_size, floor=None, overfit=None, leaks=(), max_norm=None,
             clipping=None):
    """Every finding the history and the probes support, most basic first.

    vocab_size: V, for the loss at step 0. floor: the lowest loss the data allows per token, if
    known. overfit: the losses of the overfitting probe, if it was run. leaks: what the leak probes
    found, in words. max_norm: the clipping threshold, to quote with the gradient norms; clipping:
    what the clipping probe found.
    """
    seen = losses(history)
    found = [init_finding(seen[0], vocab_size) if seen else None,
             overfit_finding(overfit),
             leak_finding(history, floor, leaks),
             divergence_finding(history, max_norm, clipping),
             gap_finding(history)]
    return [f for f in found if f is not None]


# Probes: each takes the pieces under test and returns what it found, in words, or None.

def mask_leak(logits_fn, ids, vocab_size):
    """Whether a position's logits change when a LATER token changes: then the model reads the
    future. ids: (B, T) token ids, T >= 2; logits_fn maps ids to (B, T, V) logits."""
    changed = ids.clone()
    changed[:, -1] = (changed[:, -1] + 1) % vocab_size
    with torch.no_grad():
        before, after = logits_fn(ids)[:, :-1], logits_fn(changed)[:, :-1]
    if torch.allclose(before, after, rtol=1e-4, atol=1e-5):
        return None
    return ("changing only the last token of a sequence changes the logits at earlier positions: "
            "the model reads tokens after the one it predicts")


def shift_leak(get_batch, data, batch_size, context):
    """Whether a batch's targets are not the inputs shifted by one token."""
    x, y = get_batch(data, batch_size, context, torch.Generator().manual_seed(0))
    if x.shape == y.shape and torch.equal(y[:, :-1], x[:, 1:]) and not torch.equal(x, y):
        return None
    return ("get_batch's targets are not its inputs shifted by one token"
            + (" (they equal the inputs)" if x.shape == y.shape and torch.equal(x, y) else ""))


def clipping_gap(clip_grad_norm, max_norm):
    """Whether clipping leaves a huge gradient above max_norm."""
    big = {"w": torch.full((4, 3), 100.0, dtype=torch.float64)}
    clipped, _ = clip_grad_norm(big, max_norm)
    norm = float(torch.linalg.vector_norm(clipped["w"]))
    return None if norm <= max_norm * 1.01 else (
        f"clip_grad_norm leaves a gradient of norm {norm:.3g} where max_norm is {max_norm}")
