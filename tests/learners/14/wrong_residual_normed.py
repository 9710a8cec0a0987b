# overwrote the stream with its normalised version, so the residuals add the normalised input
# varies: right_plain.py

def transformer_block(x, p, n_heads):
    x = rmsnorm(x, p["norm1"])
    h = x + mha_forward(x, p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    h2 = rmsnorm(h, p["norm2"])
    return h2 + swiglu_mlp(h2, p["W1"], p["W3"], p["W2"])
