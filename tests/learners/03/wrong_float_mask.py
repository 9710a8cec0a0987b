# returned a float mask of ones and zeros instead of booleans
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k)), k=t_k - t_q)
