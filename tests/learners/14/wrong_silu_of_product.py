# applied silu to the product of both branches instead of to the W1 branch only
# varies: right_plain.py

def swiglu_mlp(u, W1, W3, W2):
    return silu((u @ W1) * (u @ W3)) @ W2
