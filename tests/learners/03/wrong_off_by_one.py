# added one too many to the offset, so each query also sees the next key
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    return np.tril(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q + 1)
