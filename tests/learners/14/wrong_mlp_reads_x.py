# fed the MLP rmsnorm(x) instead of rmsnorm(h) (parallel-block style)
# varies: right_plain.py

def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return h + swiglu_mlp(rmsnorm(x, p["norm2"]), p["W1"], p["W3"], p["W2"])
