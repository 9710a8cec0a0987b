"""Known mistakes for lesson 27 (the training loop, evaluation and checkpoints)."""
import math

import torch

from grader.lessons.authoring import mistake


def settings(run, config, lr_at):
    """The batch size, context and learning rate of the run's next step, as the reference has them
    (a mistake passes its lesson's own lr_at: this file cannot see the reference's names)."""
    return (config["batch_size"], config["context"],
            lr_at(run["step"], config["max_lr"], config["min_lr"], config["warmup_steps"],
                  config["max_steps"]))


def update(run, grads, lr, config, adamw_step):
    """Lesson 27's steps 5 and 6 as the reference does them: AdamW, written back, counted."""
    params = run["params"]
    new, run["opt"] = adamw_step({k: p.detach() for k, p in params.items()}, grads, run["opt"], lr,
                                 weight_decay=config["weight_decay"])
    with torch.no_grad():
        for k, p in params.items():
            p.copy_(new[k])
    run["step"] += 1


# --- train_step ---

@mistake("gradients-accumulate", hint=1, message="""\
Your train_step never clears the gradients, and backward() ADDS into each parameter's .grad: from
the second step on, every step follows the sum of all the gradients so far, not its own. Clear
them before the backward pass: `p.grad = None` for every parameter (what optimizer.zero_grad()
does).""")
def train_step(run, data, config):
    b, t, lr = settings(run, config, lr_at)
    x, y = get_batch(data, b, t, run["rng"])
    loss = batch_loss(gpt2_logits(run["params"], x, config["n_heads"], config["dropout"]), y)
    loss.backward()
    grads, norm = clip_grad_norm({k: p.grad for k, p in run["params"].items()}, config["max_norm"])
    update(run, grads, lr, config, adamw_step)
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": norm.item()}


@mistake("gradients-zeroed-after-backward", hint=1, message="""\
You zero the gradients right AFTER backward(), before they are used, so every step updates with a
gradient of zero: the weights only shrink by their decay and the loss never falls, not even on one
batch seen over and over. Clear them BEFORE the backward pass (p.grad = None at the start of the
step); backward() then fills them with this step's gradient.""")
def train_step(run, data, config):
    b, t, lr = settings(run, config, lr_at)
    x, y = get_batch(data, b, t, run["rng"])
    loss = batch_loss(gpt2_logits(run["params"], x, config["n_heads"], config["dropout"]), y)
    loss.backward()
    for p in run["params"].values():
        p.grad.zero_()
    grads, norm = clip_grad_norm({k: p.grad for k, p in run["params"].items()}, config["max_norm"])
    update(run, grads, lr, config, adamw_step)
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": norm.item()}


@mistake("update-not-written-back", hint=1, message="""\
adamw_step returns NEW tensors, and your train_step never puts them into run["params"]: the
optimizer state moves on but the parameters stay where they started, so the loss never falls.
Copy each new value into its leaf tensor under torch.no_grad(): p.copy_(new[name]).""")
def train_step(run, data, config):
    b, t, lr = settings(run, config, lr_at)
    x, y = get_batch(data, b, t, run["rng"])
    params = run["params"]
    for p in params.values():
        p.grad = None
    loss = batch_loss(gpt2_logits(params, x, config["n_heads"], config["dropout"]), y)
    loss.backward()
    grads, norm = clip_grad_norm({k: p.grad for k, p in params.items()}, config["max_norm"])
    _, run["opt"] = adamw_step({k: p.detach() for k, p in params.items()}, grads, run["opt"], lr,
                               weight_decay=config["weight_decay"])
    run["step"] += 1
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": norm.item()}


@mistake("model-reads-the-targets", hint=1, message="""\
Your model reads y, the targets from get_batch, instead of x: gpt2_logits(params, y, ...). Each position then
sees the very token it has to predict, the loss falls far below what the text allows, and the
model learns to copy instead of to predict. The model reads the inputs x; y is only for the loss.""")
def train_step(run, data, config):
    b, t, lr = settings(run, config, lr_at)
    x, y = get_batch(data, b, t, run["rng"])
    for p in run["params"].values():
        p.grad = None
    loss = batch_loss(gpt2_logits(run["params"], y, config["n_heads"], config["dropout"]), y)
    loss.backward()
    grads, norm = clip_grad_norm({k: p.grad for k, p in run["params"].items()}, config["max_norm"])
    update(run, grads, lr, config, adamw_step)
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": norm.item()}


@mistake("schedule-a-step-ahead", hint=1, message="""\
Your learning rate is lr_at(run["step"] + 1, ...): the schedule runs one step ahead, so the first
step skips the start of the warmup. run["step"] counts the steps already done, so the step being
taken is number run["step"] itself, counting from 0: lr_at(run["step"], ...).""")
def train_step(run, data, config):
    b, t, _ = settings(run, config, lr_at)
    lr = lr_at(run["step"] + 1, config["max_lr"], config["min_lr"], config["warmup_steps"],
               config["max_steps"])
    x, y = get_batch(data, b, t, run["rng"])
    for p in run["params"].values():
        p.grad = None
    loss = batch_loss(gpt2_logits(run["params"], x, config["n_heads"], config["dropout"]), y)
    loss.backward()
    grads, norm = clip_grad_norm({k: p.grad for k, p in run["params"].items()}, config["max_norm"])
    update(run, grads, lr, config, adamw_step)
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": norm.item()}


@mistake("not-clipped", hint=1, message="""\
You compute the gradient norm but update with the gradients as they are: the clipped ones from
clip_grad_norm are thrown away, so a spike goes straight into the weights. Pass the CLIPPED
gradients (the first value clip_grad_norm returns, after backward) to adamw_step.""")
def train_step(run, data, config):
    b, t, lr = settings(run, config, lr_at)
    x, y = get_batch(data, b, t, run["rng"])
    for p in run["params"].values():
        p.grad = None
    loss = batch_loss(gpt2_logits(run["params"], x, config["n_heads"], config["dropout"]), y)
    loss.backward()
    grads = {k: p.grad for k, p in run["params"].items()}
    _, norm = clip_grad_norm(grads, config["max_norm"])
    update(run, grads, lr, config, adamw_step)
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": norm.item()}


@mistake("no-dropout-in-training", hint=2, message="""\
Your training forward pass has no dropout: gpt2_logits(params, x, n_heads) leaves it at 0, so
config["dropout"] is never used. Training is where dropout belongs: pass config["dropout"] there
(and only there; evaluation runs without it).""")
def train_step(run, data, config):
    b, t, lr = settings(run, config, lr_at)
    x, y = get_batch(data, b, t, run["rng"])
    for p in run["params"].values():
        p.grad = None
    loss = batch_loss(gpt2_logits(run["params"], x, config["n_heads"]), y)
    loss.backward()
    grads, norm = clip_grad_norm({k: p.grad for k, p in run["params"].items()}, config["max_norm"])
    update(run, grads, lr, config, adamw_step)
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": norm.item()}


# --- evaluate ---

@mistake("evaluated-with-gradients", hint=2, message="""\
Your evaluate runs the model with autograd recording: the numbers are right, but every batch
builds a graph that is never used (memory and time, and a real model runs out of memory). Wrap
the evaluation's forward passes in `with torch.no_grad():`.""")
def evaluate(params, data, config):
    rng = torch.Generator().manual_seed(config["eval_seed"])
    losses = [batch_loss(gpt2_logits(params, x, config["n_heads"]), y).item()
              for x, y in (get_batch(data, config["batch_size"], config["context"], rng)
                           for _ in range(config["eval_batches"]))]
    loss = sum(losses) / len(losses)
    return {"loss": loss, "perplexity": math.exp(loss)}


@mistake("evaluated-with-dropout", hint=2, message="""\
Your evaluate passes config["dropout"] to the model, so the evaluation drops activations at
random: its loss is noisy and too high, and its draws from torch's global generator change the
dropout masks of every later training step. Evaluate without dropout (gpt2_logits(params, x,
n_heads)).""")
def evaluate(params, data, config):
    rng = torch.Generator().manual_seed(config["eval_seed"])
    losses = []
    with torch.no_grad():
        for _ in range(config["eval_batches"]):
            x, y = get_batch(data, config["batch_size"], config["context"], rng)
            losses.append(batch_loss(gpt2_logits(params, x, config["n_heads"], config["dropout"]),
                                     y).item())
    loss = sum(losses) / len(losses)
    return {"loss": loss, "perplexity": math.exp(loss)}


@mistake("perplexity-mean-of-exps", hint=2, message="""\
Your perplexity is the mean of the batches' perplexities, mean(exp(loss_i)). The perplexity is
exp of the MEAN loss, math.exp(mean(loss_i)); the mean of the exponentials is always larger
(exp is convex) and is not the perplexity of anything.""")
def evaluate(params, data, config):
    rng = torch.Generator().manual_seed(config["eval_seed"])
    losses = []
    with torch.no_grad():
        for _ in range(config["eval_batches"]):
            x, y = get_batch(data, config["batch_size"], config["context"], rng)
            losses.append(batch_loss(gpt2_logits(params, x, config["n_heads"]), y).item())
    return {"loss": sum(losses) / len(losses),
            "perplexity": sum(math.exp(l) for l in losses) / len(losses)}


@mistake("perplexity-in-bits", hint=2, message="""\
Your perplexity is 2 ** loss. The loss is in nats (natural logarithms, as the cross-entropy is
computed), so the perplexity is e ** loss, math.exp(loss); 2 ** loss would be right only for a
loss measured in bits.""")
def evaluate(params, data, config):
    rng = torch.Generator().manual_seed(config["eval_seed"])
    losses = []
    with torch.no_grad():
        for _ in range(config["eval_batches"]):
            x, y = get_batch(data, config["batch_size"], config["context"], rng)
            losses.append(batch_loss(gpt2_logits(params, x, config["n_heads"]), y).item())
    loss = sum(losses) / len(losses)
    return {"loss": loss, "perplexity": 2 ** loss}


# --- checkpoints ---

@mistake("batch-generator-not-saved", hint=3, message="""\
Your checkpoint does not keep run["rng"]'s state, so the resumed run draws its batches from a new
generator: the data order starts over and the history after the resume differs from the run that
never stopped. Save run["rng"].get_state() and give the loaded run a generator with
.set_state(saved state).""")
def load_checkpoint(path):
    saved = torch.load(path)
    torch.set_rng_state(saved["torch_rng"])
    return {"params": {k: p.requires_grad_(True) for k, p in saved["params"].items()},
            "opt": saved["opt"], "step": saved["step"], "rng": torch.Generator()}


@mistake("global-generator-not-saved", hint=3, message="""\
Your checkpoint keeps the batch generator but not torch's global generator, which dropout draws
from: after the resume the dropout masks differ from the uninterrupted run's, and so does every
step. Save torch.get_rng_state() and restore it with torch.set_rng_state() when loading.""")
def load_checkpoint(path):
    saved = torch.load(path)
    rng = torch.Generator()
    rng.set_state(saved["rng"])
    return {"params": {k: p.requires_grad_(True) for k, p in saved["params"].items()},
            "opt": saved["opt"], "step": saved["step"], "rng": rng}


@mistake("optimizer-state-not-saved", hint=3, message="""\
Your resumed run starts with a fresh optimizer state (zero moments, step 0): AdamW's first steps
after the resume are large bias-corrected steps instead of the ones the run would have taken.
Save run["opt"] (its step and moments) in the checkpoint and give it back when loading.""")
def load_checkpoint(path):
    saved = torch.load(path)
    torch.set_rng_state(saved["torch_rng"])
    rng = torch.Generator()
    rng.set_state(saved["rng"])
    params = {k: p.requires_grad_(True) for k, p in saved["params"].items()}
    return {"params": params, "opt": adamw_init(params), "step": saved["step"], "rng": rng}


@mistake("step-not-saved", hint=3, message="""\
Your loaded run starts at step 0: the schedule starts over with its warmup, and train() runs the
whole number of steps again. Save run["step"] in the checkpoint and resume from it.""")
def load_checkpoint(path):
    saved = torch.load(path)
    torch.set_rng_state(saved["torch_rng"])
    rng = torch.Generator()
    rng.set_state(saved["rng"])
    return {"params": {k: p.requires_grad_(True) for k, p in saved["params"].items()},
            "opt": saved["opt"], "step": 0, "rng": rng}


# --- train ---

@mistake("validation-on-the-training-split", hint=2, message="""\
Your "val_loss" is measured on the training split (train_data), so it equals the training loss
and can never show overfitting. Evaluate the validation record on val_data.""")
def train(run, train_data, val_data, config, steps, checkpoint_path=None):
    history = {"steps": [], "evals": []}
    while run["step"] < steps:
        history["steps"].append(train_step(run, train_data, config))
        if run["step"] % config["eval_every"] == 0 or run["step"] == steps:
            val = evaluate(run["params"], train_data, config)
            history["evals"].append({"step": run["step"],
                                     "train_loss": evaluate(run["params"], train_data, config)["loss"],
                                     "val_loss": val["loss"], "val_perplexity": val["perplexity"]})
            if checkpoint_path is not None:
                save_checkpoint(run, checkpoint_path)
    return history


@mistake("steps-more-instead-of-up-to", hint=3, message="""\
Your train runs `steps` MORE steps (for _ in range(steps)) wherever the run is, so a run resumed
at step 3 of 7 trains to step 10. `steps` is where training ends: while run["step"] < steps.""")
def train(run, train_data, val_data, config, steps, checkpoint_path=None):
    history = {"steps": [], "evals": []}
    end = run["step"] + steps
    for _ in range(steps):
        history["steps"].append(train_step(run, train_data, config))
        if run["step"] % config["eval_every"] == 0 or run["step"] == end:
            val = evaluate(run["params"], val_data, config)
            history["evals"].append({"step": run["step"],
                                     "train_loss": evaluate(run["params"], train_data, config)["loss"],
                                     "val_loss": val["loss"], "val_perplexity": val["perplexity"]})
            if checkpoint_path is not None:
                save_checkpoint(run, checkpoint_path)
    return history


@mistake("evaluates-before-the-step", hint=3, message="""\
Your train evaluates BEFORE the step, at steps 0, eval_every, 2 eval_every, ..., so each record
describes the model before the steps it names, the last steps are never evaluated, and the
checkpoint saved with it is one step short. Evaluate after the step: once train_step has made
run["step"] a multiple of eval_every, and after the last step.""")
def train(run, train_data, val_data, config, steps, checkpoint_path=None):
    history = {"steps": [], "evals": []}
    while run["step"] < steps:
        if run["step"] % config["eval_every"] == 0:
            val = evaluate(run["params"], val_data, config)
            history["evals"].append({"step": run["step"],
                                     "train_loss": evaluate(run["params"], train_data, config)["loss"],
                                     "val_loss": val["loss"], "val_perplexity": val["perplexity"]})
            if checkpoint_path is not None:
                save_checkpoint(run, checkpoint_path)
        history["steps"].append(train_step(run, train_data, config))
    return history
