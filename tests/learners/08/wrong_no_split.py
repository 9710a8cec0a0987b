# projected q, k, v but attended over the full width without splitting into heads
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    q = x @ Wq
    k = x @ Wk
    v = x @ Wv
    return causal_attention(q, k, v) @ Wo
