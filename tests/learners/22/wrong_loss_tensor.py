# returned the loss as a tensor instead of a Python float
# varies: right_formula.py

def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    """One training step on the batch `ids` (int64, (B, T)).

    Computes the loss of `params` on `ids` (gpt2_logits, then next_token_loss), its gradient with
    respect to every parameter by autograd, and one adamw_step.
    Returns (loss before the step as a Python float, new_params, new_state).
    """
    leaves = {k: p.detach().clone().requires_grad_(True) for k, p in params.items()}
    loss = next_token_loss(gpt2_logits(leaves, ids, n_heads), ids)
    loss.backward()
    grads = {k: p.grad.detach() for k, p in leaves.items()}
    new_params, new_state = adamw_step(params, grads, state, lr, betas, eps, weight_decay)
    return loss.detach(), new_params, new_state
