# put the silu on the W3 branch instead of the W1 branch
# varies: right_plain.py

def swiglu_mlp(u, W1, W3, W2):
    return ((u @ W1) * silu(u @ W3)) @ W2
