# used the weights transposed (x @ W.T), as nn.Linear stores them
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = split_heads(x @ Wq.T, n_heads)
    k = split_heads(x @ Wk.T, n_heads)
    v = split_heads(x @ Wv.T, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ Wo.T
