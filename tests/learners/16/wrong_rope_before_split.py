# applied RoPE to the full-width projections before splitting into heads
# varies: right_plain.py

def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    if positions is None:
        positions = np.arange(x.shape[-2])
    q = split_heads(rope(x @ Wq, positions, theta), n_heads)
    k = split_heads(rope(x @ Wk, positions, theta), n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo
