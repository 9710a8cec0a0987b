# scaled by the square root of the whole key width n_kv_heads * hd instead of hd
# varies: right_repeat.py

def gqa_forward(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads):
    g = n_heads // n_kv_heads
    T = x.shape[-2]
    q = split_heads(x @ Wq, n_heads)
    k = np.repeat(split_heads(x @ Wk, n_kv_heads), g, axis=-3)
    v = np.repeat(split_heads(x @ Wv, n_kv_heads), g, axis=-3)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(Wk.shape[1])
    s = np.where(causal_mask(T), s, -np.inf)
    return merge_heads(softmax(s) @ v) @ Wo
