# treated True in the mask as hidden instead of visible
# varies: right_einsum.py

def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    return softmax(scores) @ v
