# did not pass theta on to rope, so it always uses 10000
# varies: right_plain.py

def mha_rope_forward(x, Wq, Wk, Wv, Wo, n_heads, positions=None, theta=10000.0):
    if positions is None:
        positions = np.arange(x.shape[-2])
    q = rope(split_heads(x @ Wq, n_heads), positions)
    k = rope(split_heads(x @ Wk, n_heads), positions)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo
