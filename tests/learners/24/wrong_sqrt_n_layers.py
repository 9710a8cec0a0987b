# mistake: the projections scaled by 1 / sqrt(n_layers)
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
            params[name] = torch.randn(*shape, generator=rng, dtype=torch.float64) * (std / math.sqrt(n_layers) if "c_proj" in name else std)
    return params
