# wrote a post-norm block (normalise after each residual add), as in the original Transformer
# varies: right_plain.py

def transformer_block(x, p, n_heads):
    h = rmsnorm(x + mha_forward(x, p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads), p["norm1"])
    return rmsnorm(h + swiglu_mlp(h, p["W1"], p["W3"], p["W2"]), p["norm2"])
