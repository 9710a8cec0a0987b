# squared z in the cubic term instead of cubing it
# varies: right_tanh.py

def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 2)))
