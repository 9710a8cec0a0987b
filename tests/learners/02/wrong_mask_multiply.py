# multiplied the scores by the mask, so hidden scores become 0 rather than -inf
# varies: right_einsum.py

def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores * mask
    return softmax(scores) @ v
