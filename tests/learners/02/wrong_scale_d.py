# divided the scores by d instead of sqrt(d)
# varies: right_einsum.py

def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / q.shape[-1]
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores) @ v
