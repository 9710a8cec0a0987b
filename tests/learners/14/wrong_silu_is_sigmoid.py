# returned sigmoid(z) as silu, forgetting to multiply by z
# varies: right_plain.py

def silu(z):
    return 0.5 * (1.0 + np.tanh(z / 2.0))
