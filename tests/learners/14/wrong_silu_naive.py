# wrote silu as z / (1 + exp(-z)), which overflows for very negative z
# varies: right_plain.py

def silu(z):
    return z / (1.0 + np.exp(-z))
