# mistake: V counted as the largest target id plus one
"""Lesson 24: GPT-2's initialisation, and the loss at initialisation."""
import math

import torch
import torch.nn.functional as F


# ---------------------------------------------------------------------------------------------
# Given: the parameters' names and shapes, the model (lesson 22's GPT-2 forward pass), the loss on
# batches whose targets are already shifted (lesson 23), and two lines the grader calls (you
# cannot send a torch.Generator to a check). Your code goes further down.
# ---------------------------------------------------------------------------------------------

def param_shapes(vocab_size, width, n_layers, n_positions):
    """Every parameter's name and shape, in the order gpt2_init draws them."""
    d = width
    shapes = {"transformer.wte.weight": (vocab_size, d), "transformer.wpe.weight": (n_positions, d)}
    for i in range(n_layers):
        pre = f"transformer.h.{i}."
        shapes.update({pre + "ln_1.weight": (d,), pre + "ln_1.bias": (d,),
                       pre + "attn.c_attn.weight": (d, 3 * d), pre + "attn.c_attn.bias": (3 * d,),
                       pre + "attn.c_proj.weight": (d, d), pre + "attn.c_proj.bias": (d,),
                       pre + "ln_2.weight": (d,), pre + "ln_2.bias": (d,),
                       pre + "mlp.c_fc.weight": (d, 4 * d), pre + "mlp.c_fc.bias": (4 * d,),
                       pre + "mlp.c_proj.weight": (4 * d, d), pre + "mlp.c_proj.bias": (d,)})
    shapes["transformer.ln_f.weight"] = (d,)
    shapes["transformer.ln_f.bias"] = (d,)
    return shapes


def gpt2_logits(params, ids, n_heads):
    """Logits (B, T, V) of a GPT-2-style model for int64 token ids (B, T); weights multiply on the
    right (x @ W) and the output layer is tied to "transformer.wte.weight"."""
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    b, t = ids.shape
    d = wte.shape[1]
    x = wte[ids] + wpe[:t]
    n_layers = len({k.split(".")[2] for k in params if k.startswith("transformer.h.")})
    for i in range(n_layers):
        p = lambda name: params[f"transformer.h.{i}.{name}"]
        h = F.layer_norm(x, (d,), p("ln_1.weight"), p("ln_1.bias"), eps=1e-5)
        q, k, v = (h @ p("attn.c_attn.weight") + p("attn.c_attn.bias")).split(d, dim=-1)
        q, k, v = (z.view(b, t, n_heads, d // n_heads).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, t, d)
        x = x + a @ p("attn.c_proj.weight") + p("attn.c_proj.bias")
        h = F.layer_norm(x, (d,), p("ln_2.weight"), p("ln_2.bias"), eps=1e-5)
        h = F.gelu(h @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias"), approximate="tanh")
        x = x + h @ p("mlp.c_proj.weight") + p("mlp.c_proj.bias")
    x = F.layer_norm(x, (d,), params["transformer.ln_f.weight"], params["transformer.ln_f.bias"],
                     eps=1e-5)
    return x @ wte.T


def batch_loss(logits, targets):
    """Mean cross-entropy of logits (B, T, V) against targets (B, T) that are already shifted
    (targets[:, t] is the token after input t, as get_batch gives them)."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def init_from_seed(vocab_size, width, n_layers, n_positions, seed, std=0.02):
    """Your gpt2_init with a generator seeded with `seed` (torch's global generator is seeded too,
    with another seed, so that every run gives the same parameters)."""
    torch.manual_seed(seed + 1000)
    return gpt2_init(vocab_size, width, n_layers, n_positions, torch.Generator().manual_seed(seed),
                     std)


def report_at_init(vocab_size, width, n_layers, n_positions, seed, n_heads, x, y, std=0.02):
    """Your init_report on the model your gpt2_init makes."""
    params = init_from_seed(vocab_size, width, n_layers, n_positions, seed, std)
    return init_report(params, x, y, n_heads)


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    """GPT-2's initial parameters, float64, under the names and in the order of param_shapes.

    Biases are zeros and the layer norms' gains ("ln_1.weight", "ln_2.weight", "ln_f.weight")
    ones; nothing is drawn for them. Every other weight is drawn with one call,
        torch.randn(*shape, generator=rng, dtype=torch.float64) * s,
    in the order param_shapes lists them, where s is std, except for the two projections into the
    residual stream ("attn.c_proj.weight" and "mlp.c_proj.weight"), which get
    s = std / sqrt(2 * n_layers). There is no output layer: it is tied to the token embedding.
    """
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif "ln_" in name:
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std
            params[name] = torch.randn(*shape, generator=rng, dtype=torch.float64) * s
    return params


def init_report(params, x, y, n_heads):
    """How the loss of `params` on the batch (x, y) compares with a uniform guess.

    x, y: int64 (B, T) inputs and shifted targets. V is the number of rows of
    "transformer.wte.weight". Returns {"loss": the batch loss as a float (gpt2_logits, then
    batch_loss), "uniform": ln V, the loss of giving every token probability 1/V,
    "gap": loss - uniform}.
    """
    with torch.no_grad():
        loss = batch_loss(gpt2_logits(params, x, n_heads), y).item()
    V = int(y.max()) + 1
    return {"loss": loss, "uniform": math.log(V), "gap": loss - math.log(V)}
