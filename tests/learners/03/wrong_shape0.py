# sized the mask from shape[0], which is the batch size for batched inputs
# varies: right_tril.py

def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    return np.tril(np.ones((t_q, t_k), dtype=bool), k=t_k - t_q)


def causal_attention(q, k, v):
    return attention(q, k, v, mask=causal_mask(q.shape[0], k.shape[0]))
