# used np.where with both formulas, but np.where evaluates both branches, so exp still overflows
# varies: right_tanh.py

def sigmoid(z):
    return np.where(z >= 0, 1 / (1 + np.exp(-z)), np.exp(z) / (1 + np.exp(z)))
