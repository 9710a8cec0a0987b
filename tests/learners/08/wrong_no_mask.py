# forgot the causal mask and used plain attention
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    return merge_heads(attention(q, k, v)) @ Wo
