# filled hidden scores with -1e4 instead of -inf, which is not enough for scores in the thousands
# varies: right_einsum.py

def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e4)
    return softmax(scores) @ v
