# forgot the factor 0.5 in front of GELU
# varies: right_tanh.py

def gelu(z):
    return z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)))
