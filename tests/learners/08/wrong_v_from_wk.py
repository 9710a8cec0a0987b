# copy-paste slip: computed the values with Wk instead of Wv
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wk, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo
