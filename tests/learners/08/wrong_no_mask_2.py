# mistake: uses plain attention without the causal mask
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    """Causal multi-head self-attention.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wk, Wv, Wo: (D, D) weights, used on the right (x @ W).
    n_heads: the number of heads H; it divides D, and each head works on D/H columns.
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(attention(q, k, v)) @ Wo
