# rewrote sigmoid as exp(z) / (1 + exp(z)), which overflows (inf/inf) for large positive z
# varies: right_tanh.py

def sigmoid(z):
    e = np.exp(z)
    return e / (1.0 + e)
