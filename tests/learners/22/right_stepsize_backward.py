# right: folds the bias corrections into a step size (torch's formula), loss.backward on fresh leaves
"""Lesson 22: one training step of a small GPT, with AdamW written by hand."""
import math

import torch
import torch.nn.functional as F


# ---------------------------------------------------------------------------------------------
# Given: the model and its loss (chapter 5), and a few lines to start and run training. The
# parameters use the names of a GPT-2 state dict in Hugging Face transformers (the output layer is
# tied to "transformer.wte.weight"). Call these; your code goes further down.
# ---------------------------------------------------------------------------------------------

def gpt2_logits(params, ids, n_heads):
    """Logits (B, T, V) of a GPT-2-style model for int64 token ids (B, T).

    params: float64 tensors named as in a GPT-2 state dict: "transformer.wte.weight" (V, D),
    "transformer.wpe.weight" (P, D), per block i "transformer.h.{i}.ln_1.weight" / ".bias" (D,),
    ".attn.c_attn.weight" (D, 3D) / ".bias" (3D,), ".attn.c_proj.weight" (D, D) / ".bias",
    ".ln_2.weight" / ".bias", ".mlp.c_fc.weight" (D, 4D) / ".bias", ".mlp.c_proj.weight" (4D, D)
    / ".bias", and "transformer.ln_f.weight" / ".bias". Weights multiply on the right (x @ W).
    """
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    b, t = ids.shape
    d = wte.shape[1]
    hd = d // n_heads
    x = wte[ids] + wpe[:t]
    n_layers = len({k.split(".")[2] for k in params if k.startswith("transformer.h.")})
    for i in range(n_layers):
        p = lambda name: params[f"transformer.h.{i}.{name}"]
        h = F.layer_norm(x, (d,), p("ln_1.weight"), p("ln_1.bias"), eps=1e-5)
        q, k, v = (h @ p("attn.c_attn.weight") + p("attn.c_attn.bias")).split(d, dim=-1)
        q, k, v = (z.view(b, t, n_heads, hd).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        a = a.transpose(1, 2).reshape(b, t, d)
        x = x + a @ p("attn.c_proj.weight") + p("attn.c_proj.bias")
        h = F.layer_norm(x, (d,), p("ln_2.weight"), p("ln_2.bias"), eps=1e-5)
        h = F.gelu(h @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias"), approximate="tanh")
        x = x + h @ p("mlp.c_proj.weight") + p("mlp.c_proj.bias")
    x = F.layer_norm(x, (d,), params["transformer.ln_f.weight"], params["transformer.ln_f.bias"],
                     eps=1e-5)
    return x @ wte.T


def next_token_loss(logits, ids):
    """Mean cross-entropy of predicting ids[:, t + 1] from logits[:, t] (the last position has no
    target). logits: (B, T, V); ids: int64 (B, T). Returns a scalar tensor."""
    v = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, v), ids[:, 1:].reshape(-1))


def adamw_init(params):
    """The optimizer state before the first step: step 0, and zero moments for every parameter."""
    return {"step": 0,
            "m": {k: torch.zeros_like(p) for k, p in params.items()},
            "v": {k: torch.zeros_like(p) for k, p in params.items()}}


def train(params, batches, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    """Your `train_step` once per batch from a fresh state; returns (losses, params, state)."""
    state, losses = adamw_init(params), []
    for ids in batches:
        loss, params, state = train_step(params, state, ids, n_heads, lr, betas, eps, weight_decay)
        losses.append(loss)
    return losses, params, state


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

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
    bc1 = 1 - beta1 ** step
    bc2 = 1 - beta2 ** step
    step_size = lr / bc1
    new_params = {}
    new_state = {"step": step, "m": {}, "v": {}}
    for k in params:
        p, g = params[k], grads[k]
        m = torch.lerp(state["m"][k], g, 1 - beta1)
        v = state["v"][k] * beta2 + (1 - beta2) * g.square()
        denom = v.sqrt() / math.sqrt(bc2) + eps
        new_params[k] = p * (1 - lr * weight_decay) - step_size * m / denom
        new_state["m"][k] = m
        new_state["v"][k] = v
    return new_params, new_state


def train_step(params, state, ids, n_heads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
    """One training step on the batch `ids` (int64, (B, T)).

    Computes the loss of `params` on `ids` (gpt2_logits, then next_token_loss), its gradient with
    respect to every parameter by autograd, and one adamw_step.
    Returns (loss before the step as a Python float, new_params, new_state).
    """
    leaves = {name: t.detach().clone().requires_grad_() for name, t in params.items()}
    loss = next_token_loss(gpt2_logits(leaves, ids, n_heads), ids)
    loss.backward()
    grads = {name: t.grad.detach().clone() for name, t in leaves.items()}
    new_params, new_state = adamw_step(params, grads, state, lr, betas=betas, eps=eps, weight_decay=weight_decay)
    return float(loss.detach()), new_params, new_state
