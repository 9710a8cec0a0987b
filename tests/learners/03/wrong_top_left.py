# mistake: top-left aligned tril (no offset) when t_q < t_k
# varies: right_loops_2.py

def causal_mask(t_q, t_k=None):
    """The causal mask for t_q queries that are the last t_q positions of t_k keys.

    t_q, t_k: positive ints with t_q <= t_k; t_k defaults to t_q.
    Query i sits at absolute position t_k - t_q + i and may see key j iff j <= t_k - t_q + i.
    Returns a boolean array of shape (t_q, t_k); True means "may attend".
    """
    if t_k is None:
        t_k = t_q
    return np.tril(np.ones((t_q, t_k), dtype=bool))


def causal_attention(q, k, v):
    """Attention where each query sees only the keys at its own position and before.

    q (..., Tq, d) are the last Tq positions of the Tk >= Tq positions of k (..., Tk, d) and
    v (..., Tk, dv). Returns (..., Tq, dv).
    """
    return attention(q, k, v, mask=causal_mask(q.shape[-2], k.shape[-2]))
