# handled temperature 0 by clamping it to 1e-8, so tied maxima share the probability
# varies: right_sorted.py

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
    logits = np.asarray(logits, dtype=np.float64)
    temperature = max(temperature, 1e-8)
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        kth = np.sort(z, axis=-1)[..., -k][..., None]
        z = np.where(z >= kth, z, -np.inf)
    probs = softmax(z, axis=-1)
    if top_p is not None:
        sorted_p = -np.sort(-probs, axis=-1)
        before = np.cumsum(sorted_p, axis=-1) - sorted_p
        kept = before < top_p
        threshold = np.min(np.where(kept, sorted_p, np.inf), axis=-1, keepdims=True)
        probs = np.where(probs >= threshold, probs, 0.0)
        probs = probs / probs.sum(axis=-1, keepdims=True)
    return probs
