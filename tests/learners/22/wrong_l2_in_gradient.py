# added weight_decay * p to the gradient (Adam with L2) instead of decaying the weights directly
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
        g = grads[name] + weight_decay * p
        m = b1 * state["m"][name] + (1 - b1) * g
        v = b2 * state["v"][name] + (1 - b2) * g * g
        m_hat = m / (1 - b1 ** t)
        v_hat = v / (1 - b2 ** t)
        new_params[name] = p - lr * m_hat / (torch.sqrt(v_hat) + eps)
        new_m[name] = m
        new_v[name] = v
    return new_params, {"step": t, "m": new_m, "v": new_v}
