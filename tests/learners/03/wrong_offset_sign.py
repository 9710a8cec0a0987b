# subtracted the offset instead of adding it (t_q - t_k instead of t_k - t_q)
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    query_pos = np.arange(t_q)[:, None] + (t_q - t_k)
    key_pos = np.arange(t_k)[None, :]
    return key_pos <= query_pos
