# mistake: torch's global generator not in the checkpoint
"""Lesson 27: the training loop, with evaluation on the validation split and checkpoints."""
import math
import os
import tempfile

import torch
import torch.nn.functional as F


# ---------------------------------------------------------------------------------------------
# Given: the model (with dropout), the loss, and your pieces from lessons 22, 23, 25 and 26.
# Call these; your code goes further down.
# ---------------------------------------------------------------------------------------------

def gpt2_logits(params, ids, n_heads, dropout=0.0):
    """Logits (B, T, V) of a GPT-2-style model for int64 token ids (B, T) (lesson 22's forward).

    dropout: the probability of zeroing each entry of the embeddings and of each block's two
    outputs (scaling the rest by 1 / (1 - dropout)); 0 turns it off. Its random choices come from
    torch's global generator.
    """
    drop = lambda z: F.dropout(z, dropout, training=dropout > 0)
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    b, t = ids.shape
    d = wte.shape[1]
    x = drop(wte[ids] + wpe[:t])
    n_layers = len({k.split(".")[2] for k in params if k.startswith("transformer.h.")})
    for i in range(n_layers):
        p = lambda name: params[f"transformer.h.{i}.{name}"]
        h = F.layer_norm(x, (d,), p("ln_1.weight"), p("ln_1.bias"), eps=1e-5)
        q, k, v = (h @ p("attn.c_attn.weight") + p("attn.c_attn.bias")).split(d, dim=-1)
        q, k, v = (z.view(b, t, n_heads, d // n_heads).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, t, d)
        x = x + drop(a @ p("attn.c_proj.weight") + p("attn.c_proj.bias"))
        h = F.layer_norm(x, (d,), p("ln_2.weight"), p("ln_2.bias"), eps=1e-5)
        h = F.gelu(h @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias"), approximate="tanh")
        x = x + drop(h @ p("mlp.c_proj.weight") + p("mlp.c_proj.bias"))
    x = F.layer_norm(x, (d,), params["transformer.ln_f.weight"], params["transformer.ln_f.bias"],
                     eps=1e-5)
    return x @ wte.T


def batch_loss(logits, targets):
    """Mean cross-entropy of logits (B, T, V) against targets (B, T) that are already shifted."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def get_batch(data, batch_size, context, rng):
    """Lesson 23: batch_size random windows of data, inputs x and targets y, (batch_size, context)."""
    starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    x = torch.stack([data[s:s + context] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()])
    return x, y


def lr_at(step, max_lr, min_lr, warmup_steps, max_steps):
    """Lesson 25: a linear warmup to max_lr, then a cosine decay to min_lr at max_steps."""
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step > max_steps:
        return min_lr
    ratio = (step - warmup_steps) / (max_steps - warmup_steps)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


def clip_grad_norm(grads, max_norm, norm_type=2.0):
    """Lesson 26: (grads scaled by min(1, max_norm / (total + 1e-6)), total), new tensors."""
    norms = torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads.values()])
    total = torch.linalg.vector_norm(norms, norm_type)
    factor = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    return {name: g * factor for name, g in grads.items()}, total


def adamw_init(params):
    """Lesson 22: the optimizer state before the first step."""
    return {"step": 0,
            "m": {k: torch.zeros_like(p) for k, p in params.items()},
            "v": {k: torch.zeros_like(p) for k, p in params.items()}}


def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    """Lesson 22: one AdamW update; returns (new_params, new_state), new dicts of new tensors."""
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
    return new_params, {"step": t, "m": m_new, "v": v_new}


def init_params(vocab_size, width, n_layers, n_positions, seed):
    """Lesson 24: GPT-2's initial parameters (std 0.02; the residual projections scaled by
    1 / sqrt(2 * n_layers)), float64, drawn from a generator seeded with `seed`."""
    rng, d, params = torch.Generator().manual_seed(seed), width, {}
    draw = lambda *shape, s=0.02: torch.randn(*shape, generator=rng, dtype=torch.float64) * s
    params["transformer.wte.weight"] = draw(vocab_size, d)
    params["transformer.wpe.weight"] = draw(n_positions, d)
    for i in range(n_layers):
        pre, out = f"transformer.h.{i}.", 0.02 / math.sqrt(2 * n_layers)
        for name, shape, s in (("attn.c_attn", (d, 3 * d), 0.02), ("attn.c_proj", (d, d), out),
                               ("mlp.c_fc", (d, 4 * d), 0.02), ("mlp.c_proj", (4 * d, d), out)):
            params[pre + name + ".weight"] = draw(*shape, s=s)
            params[pre + name + ".bias"] = torch.zeros(shape[1], dtype=torch.float64)
        for ln in ("ln_1", "ln_2"):
            params[pre + ln + ".weight"] = torch.ones(d, dtype=torch.float64)
            params[pre + ln + ".bias"] = torch.zeros(d, dtype=torch.float64)
    params["transformer.ln_f.weight"] = torch.ones(d, dtype=torch.float64)
    params["transformer.ln_f.bias"] = torch.zeros(d, dtype=torch.float64)
    return params


def new_run(params, seed):
    """A run before its first step: the parameters as leaf tensors that record gradients, a fresh
    optimizer state, the step count, and the generator the training batches are drawn from."""
    return {"params": {k: p.detach().clone().requires_grad_(True) for k, p in params.items()},
            "opt": adamw_init(params), "step": 0, "rng": torch.Generator().manual_seed(seed)}


# The grader calls these (a torch.Generator cannot be sent to a check).

def run_training(params, train_data, val_data, config, steps, seed, torch_seed):
    """Your train on a new run: train_data's batches drawn from a generator seeded with `seed`,
    dropout's from torch's global generator seeded with `torch_seed`."""
    torch.manual_seed(torch_seed)
    return train(new_run(params, seed), train_data, val_data, config, steps)


def run_resumed(params, train_data, val_data, config, steps, stop, seed, torch_seed):
    """The same run, stopped after `stop` steps and resumed from its last checkpoint: trained to
    `stop` with checkpoints, then everything is forgotten (torch's global generator too), the
    checkpoint is loaded and training goes on to `steps`. Returns both parts' histories joined."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "checkpoint.pt")
        torch.manual_seed(torch_seed)
        first = train(new_run(params, seed), train_data, val_data, config, stop, path)
        torch.manual_seed(torch_seed + 1)
        second = train(load_checkpoint(path), train_data, val_data, config, steps, path)
    return {part: first[part] + second[part] for part in first}


def watched_evaluate(params, data, config):
    """Your evaluate, and what each forward pass it made saw: whether autograd was recording, and
    the dropout it was given (torch's global generator is seeded first, so a run repeats)."""
    torch.manual_seed(0)
    seen, model = [], gpt2_logits

    def watching(params, ids, n_heads, dropout=0.0):
        seen.append({"grad": torch.is_grad_enabled(), "dropout": dropout})
        return model(params, ids, n_heads, dropout)

    globals()["gpt2_logits"] = watching
    try:
        result = evaluate(params, data, config)
    finally:
        globals()["gpt2_logits"] = model
    return result, seen


# ---------------------------------------------------------------------------------------------
# Your turn. `config` is a dict with the keys n_heads, batch_size, context, max_lr, min_lr,
# warmup_steps, max_steps, max_norm, weight_decay, dropout, eval_every, eval_batches, eval_seed.
# ---------------------------------------------------------------------------------------------

def train_step(run, data, config):
    """One training step of `run` on a batch of `data`; updates `run` in place.

    Draws (x, y) = get_batch(data, batch_size, context, run["rng"]); takes the learning rate
    lr_at(run["step"], max_lr, min_lr, warmup_steps, max_steps); computes the loss
    batch_loss(gpt2_logits(run["params"], x, n_heads, dropout), y) and its gradient with respect
    to every parameter (a fresh gradient: none left from an earlier step); clips the gradients
    with clip_grad_norm(grads, max_norm); makes one adamw_step(params, clipped, run["opt"], lr,
    weight_decay=weight_decay). Then run["params"] holds the new values (leaf tensors that record
    gradients), run["opt"] the new state, and run["step"] is one more.
    Returns {"step": run["step"] after the step, "loss": the loss as a float, "lr": lr,
    "grad_norm": the norm before clipping, as a float}.
    """
    x, y = get_batch(data, config["batch_size"], config["context"], run["rng"])
    lr = lr_at(run["step"], config["max_lr"], config["min_lr"], config["warmup_steps"], config["max_steps"])
    params = run["params"]
    for p in params.values():
        p.grad = None
    logits = gpt2_logits(params, x, config["n_heads"], config["dropout"])
    loss = batch_loss(logits, y)
    loss.backward()

    grads = {k: p.grad for k, p in params.items()}
    clipped, norm = clip_grad_norm(grads, config["max_norm"])
    new, run["opt"] = adamw_step({k: p.detach() for k, p in params.items()}, clipped, run["opt"], lr,
                                 weight_decay=config["weight_decay"])
    with torch.no_grad():
        for k, p in params.items():
            p.copy_(new[k])
    run["step"] += 1
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": float(norm)}


def evaluate(params, data, config):
    """The model's mean loss on eval_batches batches of `data`, and its perplexity.

    The batches come from get_batch with a generator made afresh, seeded with eval_seed (so every
    evaluation sees the same batches, and the training generator is not touched). No gradients are
    recorded (torch.no_grad()) and there is no dropout.
    Returns {"loss": the mean of the batches' losses, "perplexity": exp(loss)}, both floats.
    """
    g = torch.Generator().manual_seed(config["eval_seed"])
    total = 0.0
    with torch.no_grad():
        for _ in range(config["eval_batches"]):
            x, y = get_batch(data, config["batch_size"], config["context"], g)
            total += batch_loss(gpt2_logits(params, x, config["n_heads"]), y).item()
    mean = total / config["eval_batches"]
    return {"loss": mean, "perplexity": math.exp(mean)}


def save_checkpoint(run, path):
    """Save everything needed to resume `run` exactly to the file `path` (with torch.save): the
    parameters' values, the optimizer state, the step, run["rng"]'s state and the state of
    torch's global generator (dropout draws from it)."""
    torch.save({"params": {k: v.detach() for k, v in run["params"].items()}, "opt": run["opt"],
                "step": run["step"], "rng": run["rng"].get_state()}, path)


def load_checkpoint(path):
    """The run saved at `path`, ready to train on: parameters as leaf tensors that record
    gradients, the optimizer state, the step, a generator in the saved state. Also puts torch's
    global generator back in its saved state."""
    ck = torch.load(path)
    g = torch.Generator()
    g.set_state(ck["rng"])
    return {"params": {k: v.requires_grad_() for k, v in ck["params"].items()},
            "opt": ck["opt"], "step": ck["step"], "rng": g}


def train(run, train_data, val_data, config, steps, checkpoint_path=None):
    """Train `run` until run["step"] == steps (from wherever it is), evaluating as it goes.

    After every step that leaves run["step"] a multiple of eval_every, and after the last one:
    evaluate on both splits, record {"step": run["step"], "train_loss": ..., "val_loss": ...,
    "val_perplexity": ...}, and, given a checkpoint_path, save a checkpoint there.
    Returns {"steps": [train_step's records], "evals": [the evaluation records]}.
    """
    history = {"steps": [], "evals": []}
    while run["step"] < steps:
        history["steps"].append(train_step(run, train_data, config))
        s = run["step"]
        if s % config["eval_every"] == 0 or s == steps:
            tr = evaluate(run["params"], train_data, config)
            va = evaluate(run["params"], val_data, config)
            history["evals"].append({"step": s, "train_loss": tr["loss"], "val_loss": va["loss"],
                                     "val_perplexity": va["perplexity"]})
            if checkpoint_path:
                save_checkpoint(run, checkpoint_path)
    return history
