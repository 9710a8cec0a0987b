# mistake: the norm computed, the unclipped gradients used
# varies: right_straightforward.py

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
    _, norm = clip_grad_norm(grads, config["max_norm"])
    clipped = grads
    new, run["opt"] = adamw_step({k: p.detach() for k, p in params.items()}, clipped, run["opt"], lr,
                                 weight_decay=config["weight_decay"])
    with torch.no_grad():
        for k, p in params.items():
            p.copy_(new[k])
    run["step"] += 1
    return {"step": run["step"], "loss": loss.item(), "lr": lr, "grad_norm": float(norm)}
