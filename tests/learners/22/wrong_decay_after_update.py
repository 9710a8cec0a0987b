# applied the weight decay to the already updated weight instead of the old one
# varies: right_inplace.py

def adamw_step(params, grads, state, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    """One AdamW update of every parameter (as torch.optim.AdamW with these settings).

    params, grads: dicts of float64 tensors with the same names and shapes.
    state: {"step": number of steps taken so far, "m": {name: tensor}, "v": {name: tensor}}.
    Returns (new_params, new_state), both new dicts: the inputs stay unchanged.
    With t = state["step"] + 1, for every parameter p with gradient g:
        m = b1 m + (1 - b1) g;   v = b2 v + (1 - b2) g^2
        p = p - lr * weight_decay * p - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
    """
    beta1, beta2 = betas
    step = state["step"] + 1
    bias1 = 1 - beta1 ** step
    bias2 = 1 - beta2 ** step
    out_p, out_m, out_v = {}, {}, {}
    for k in params:
        p = params[k].clone()
        m = state["m"][k].clone().mul_(beta1).add_(grads[k], alpha=1 - beta1)
        v = state["v"][k].clone().mul_(beta2).addcmul_(grads[k], grads[k], value=1 - beta2)
        denom = (v.sqrt() / math.sqrt(bias2)).add_(eps)
        p.addcdiv_(m, denom, value=-lr / bias1)
        p.mul_(1 - lr * weight_decay)
        out_p[k], out_m[k], out_v[k] = p, m, v
    return out_p, {"step": step, "m": out_m, "v": out_v}
