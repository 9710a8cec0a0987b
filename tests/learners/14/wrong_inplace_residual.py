# added the residuals in place with +=, changing the caller's x
# varies: right_plain.py

def transformer_block(x, p, n_heads):
    x += mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    x += swiglu_mlp(rmsnorm(x, p["norm2"]), p["W1"], p["W3"], p["W2"])
    return x
