# clipped z to [-10, 10] to dodge the overflow, which flattens the tails
# varies: right_tanh.py

def sigmoid(z):
    z = np.clip(z, -10, 10)
    return 1.0 / (1.0 + np.exp(-z))
