# mistake: widens Wk/Wv by tiling their columns (np.tile on the last axis) before splitting
# varies: right_repeat.py

def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    """Causal grouped-query self-attention.

    x: (..., T, D) float64, one row per token (any number of leading batch dimensions).
    Wq, Wo: (D, D) weights; Wk, Wv: (D, n_kv_heads * D / n_heads) weights; all used on the
        right (x @ W).
    n_heads: the number of query heads H; it divides D, and every head has size hd = D / H.
    n_kv_heads: the number of key/value heads; it divides H. Query heads come in n_kv_heads
        consecutive groups of H / n_kv_heads, and group g shares key/value head g: query head h
        uses key/value head h // (H / n_kv_heads).
    Returns (..., T, D): every token's attention output, projected by Wo.
    """
    g = n_heads // n_kv_heads
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ np.tile(Wk, (1, g)), n_heads)
    v = split_heads(x @ np.tile(Wv, (1, g)), n_heads)
    out = causal_attention(q, k, v)
    return merge_heads(out) @ Wo
