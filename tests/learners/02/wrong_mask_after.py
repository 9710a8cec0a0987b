# zeroed the masked weights after the softmax instead of masking the scores before it
# varies: right_einsum.py

def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    w = softmax(scores)
    if mask is not None:
        w = w * mask
    return w @ v
