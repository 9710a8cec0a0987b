# kept the top-p prefix by position in the sort, dropping tokens tied with the last kept one
# varies: right_partition.py

def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    """The probabilities to sample the next token from.

    logits: float64 array of shape (..., V), one row of V scores per position.
    temperature: a float >= 0; 0 means greedy: one-hot on the first maximal logit.
    top_k: None, or an int >= 1: keep the tokens whose logit is at least the k-th largest
        (ties with the k-th are kept; a k above V keeps everything).
    top_p: None, or a float in (0, 1]: after top-k, keep the smallest set of most probable tokens
        whose probability reaches top_p, i.e. every token at least as probable as the one whose
        share makes the running total reach top_p (ties with it are kept).
    Applied in this order: temperature, top-k, top-p. Returns (..., V): the removed tokens get
    probability exactly 0 and every row sums to 1.
    """
    x = np.array(logits, dtype=float)
    V = x.shape[-1]
    if temperature <= 0:
        return (np.arange(V) == x.argmax(-1)[..., None]).astype(float)
    x = x / temperature
    if top_k is not None and top_k < V:
        cutoff = np.partition(x, V - top_k, axis=-1)[..., V - top_k : V - top_k + 1]
        x[x < cutoff] = -np.inf
    p = softmax(x)
    if top_p is not None:
        order = np.argsort(-p, axis=-1, kind="stable")
        ps = np.take_along_axis(p, order, axis=-1)
        mass_before = np.concatenate([np.zeros_like(ps[..., :1]), np.cumsum(ps, axis=-1)[..., :-1]], axis=-1)
        keep_sorted = mass_before < top_p
        keep = np.zeros(p.shape, dtype=bool)
        np.put_along_axis(keep, order, keep_sorted, axis=-1)
        p = np.where(keep, p, 0.0)
        p /= p.sum(-1, keepdims=True)
    return p
