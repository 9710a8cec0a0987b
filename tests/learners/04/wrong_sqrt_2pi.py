# wrote sqrt(2*pi) instead of sqrt(2/pi)
# varies: right_tanh.py

def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 * np.pi) * (z + 0.044715 * z ** 3)))
