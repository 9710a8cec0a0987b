# used a strict inequality, so a position cannot see itself
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    query_pos = np.arange(t_q)[:, None] + (t_k - t_q)
    key_pos = np.arange(t_k)[None, :]
    return key_pos < query_pos
