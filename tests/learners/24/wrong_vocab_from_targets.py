# mistake: V counted as the largest target id plus one
# varies: right_named_steps.py

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
