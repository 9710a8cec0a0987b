# used np.tril without the k offset, so the mask is wrong when there are fewer queries than keys
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k), dtype=bool))
