# used the z * sigmoid(1.702 z) approximation instead of the tanh form
# varies: right_tanh.py

def gelu(z):
    return z * sigmoid(1.702 * z)
