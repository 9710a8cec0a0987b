# mistake: rotates the values as well as the queries and keys
# varies: right_plain.py

def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    """Causal multi-head self-attention with RoPE on every head's queries and keys.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wk, Wv, Wo: (D, D) weights, used on the right (x @ W).
    n_heads: the number of heads H; it divides D, and the head size D/H is even.
    positions: an int array of shape (T,), the position of each token; None means 0 .. T-1.
    theta: the RoPE frequency base.
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    T = x.shape[-2]
    if positions is None:
        positions = np.arange(T)
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    q = rope(q, positions, theta)
    k = rope(k, positions, theta)
    v = rope(v, positions, theta)
    out = causal_attention(q, k, v)
    return merge_heads(out) @ Wo
