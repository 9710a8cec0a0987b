# fed the MLP the layer norm of the block's input instead of the stream after attention
# varies: right_module.py

def block(x, params, prefix, n_heads):
    """One pre-norm GPT-2 block: x + attention(ln_1(x)), then that + mlp(ln_2(that)).

    x: (B, T, D), the residual stream. Returns (B, T, D).
    """
    d = x.shape[-1]
    ln1 = F.layer_norm(x, (d,), params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"], eps=1e-5)
    a = x + causal_self_attention(ln1, params, prefix, n_heads)
    ln2 = F.layer_norm(x, (d,), params[prefix + "ln_2.weight"], params[prefix + "ln_2.bias"], eps=1e-5)
    return a + mlp(ln2, params, prefix)
