# computed GELU in float32
# varies: right_tanh.py

def gelu(z):
    z = np.float32(z)
    return (np.float32(0.5) * z * (1 + np.tanh(np.float32(0.7978845608) * (z + np.float32(0.044715) * z ** 3))))
