# built the causal mask from x.shape[0], which is the batch size for batched input
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    T = x.shape[0]
    return merge_heads(attention(q, k, v, mask=causal_mask(T))) @ Wo
