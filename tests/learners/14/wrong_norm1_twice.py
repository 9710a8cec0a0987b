# copy-paste slip: used norm1 for the second RMSNorm as well
# varies: right_plain.py

def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return h + swiglu_mlp(rmsnorm(h, p["norm1"]), p["W1"], p["W3"], p["W2"])
