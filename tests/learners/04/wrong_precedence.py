# dropped the brackets around (1 + tanh(...)), so only the 1 is multiplied by 0.5 z
# varies: right_tanh.py

def gelu(z):
    k = np.sqrt(2.0 / np.pi)
    return 0.5 * z * 1.0 + np.tanh(k * (z + 0.044715 * z ** 3))
