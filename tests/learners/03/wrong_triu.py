# kept the upper triangle (the future) instead of the lower one
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    return np.triu(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q)
