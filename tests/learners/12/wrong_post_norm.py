# wrote a post-norm block: layer norm applied after each residual add instead of before the sub-layer
# varies: right_manual.py

def block(x, params, prefix, n_heads):
    """One pre-norm GPT-2 block: x + attention(ln_1(x)), then that + mlp(ln_2(that)).

    x: (B, T, D), the residual stream. Returns (B, T, D).
    """
    x = layer_norm(x + causal_self_attention(x, params, prefix, n_heads), params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"])
    x = layer_norm(x + mlp(x, params, prefix), params[prefix + "ln_2.weight"], params[prefix + "ln_2.bias"])
    return x
