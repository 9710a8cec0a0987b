# wrote the textbook sigmoid, which overflows in exp for very negative z
# varies: right_tanh.py

def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))
