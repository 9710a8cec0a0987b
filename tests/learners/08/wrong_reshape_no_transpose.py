# mistake: splits heads with a plain reshape (no transpose), mixing tokens across heads
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    """Causal multi-head self-attention.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wk, Wv, Wo: (D, D) weights, used on the right (x @ W).
    n_heads: the number of heads H; it divides D, and each head works on D/H columns.
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    *b, T, D = x.shape
    hd = D // n_heads
    q = (x @ Wq).reshape(*b, n_heads, T, hd)
    k = (x @ Wk).reshape(*b, n_heads, T, hd)
    v = (x @ Wv).reshape(*b, n_heads, T, hd)
    y = causal_attention(q, k, v).reshape(*b, T, D)
    return y @ Wo
