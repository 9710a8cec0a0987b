# mistake: copy-paste slip, uses norm1 for both norms
# varies: right_plain.py

def silu(z):
    """SiLU, elementwise: z * sigmoid(z), with a sigmoid that never overflows.

    z: a float64 array of any shape (entries may be as large as +-1000 or more).
    Returns an array of the same shape.
    """
    return z * 0.5 * (1.0 + np.tanh(z / 2.0))


def swiglu_mlp(u, W1, W3, W2):
    """The SwiGLU MLP: (silu(u @ W1) * (u @ W3)) @ W2.

    u: (..., D); W1, W3: (D, F); W2: (F, D). Returns (..., D).
    """
    return (silu(u @ W1) * (u @ W3)) @ W2


def transformer_block(x, p, n_heads):
    """One pre-norm LLaMA-style block (no RoPE).

    x: (B, T, D). p: a dict with "norm1", "norm2" (D,), "Wq", "Wk", "Wv", "Wo" (D, D),
    "W1", "W3" (D, F) and "W2" (F, D). n_heads divides D.
    Returns y of shape (B, T, D), where
        h = x + mha_forward(rmsnorm(x, norm1), Wq, Wk, Wv, Wo, n_heads)
        y = h + swiglu_mlp(rmsnorm(h, norm2), W1, W3, W2).
    """
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    y = h + swiglu_mlp(rmsnorm(h, p["norm1"]), p["W1"], p["W3"], p["W2"])
    return y
