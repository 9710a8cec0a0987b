# built a square mask over the keys in causal_attention, then sliced the first Tq rows
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    return np.tril(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q)


def causal_attention(q, k, v):
    tq, tk = q.shape[-2], k.shape[-2]
    return attention(q, k, v, mask=causal_mask(tk)[:tq])
