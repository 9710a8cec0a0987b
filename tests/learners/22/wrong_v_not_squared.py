# mistake: second moment accumulates |g| instead of g squared
# varies: right_formula.py

def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    """One AdamW update of every parameter (as torch.optim.AdamW with these settings).

    params, grads: dicts of float64 tensors with the same names and shapes.
    state: {"step": number of steps taken so far, "m": {name: tensor}, "v": {name: tensor}}.
    Returns (new_params, new_state), both new dicts: the inputs stay unchanged.
    With t = state["step"] + 1, for every parameter p with gradient g:
        m = b1 m + (1 - b1) g;   v = b2 v + (1 - b2) g^2
        p = p - lr * weight_decay * p - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
    """
    b1, b2 = betas
    t = state["step"] + 1
    new_params, new_m, new_v = {}, {}, {}
    for name, p in params.items():
        g = grads[name]
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g.abs()
        m_hat = m / (1 - b1 ** t)
        v_hat = v / (1 - b2 ** t)
        new_params[name] = p - lr * weight_decay * p - lr * m_hat / (torch.sqrt(v_hat) + eps)
        new_m[name] = m
        new_v[name] = v
    return new_params, {"step": t, "m": new_m, "v": new_v}


def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    """One training step on the batch `ids` (int64, (B, T)).

    Computes the loss of `params` on `ids` (gpt2_logits, then next_token_loss), its gradient with
    respect to every parameter by autograd, and one adamw_step.
    Returns (loss before the step as a Python float, new_params, new_state).
    """
    leaves = {k: p.detach().clone().requires_grad_(True) for k, p in params.items()}
    loss = next_token_loss(gpt2_logits(leaves, ids, n_heads), ids)
    grads = torch.autograd.grad(loss, list(leaves.values()))
    grads = dict(zip(leaves.keys(), grads))
    new_params, new_state = adamw_step(params, grads, state, lr, betas, eps, weight_decay)
    return loss.item(), new_params, new_state
