# forgot the residual around the MLP
# varies: right_plain.py

def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return swiglu_mlp(rmsnorm(h, p["norm2"]), p["W1"], p["W3"], p["W2"])
