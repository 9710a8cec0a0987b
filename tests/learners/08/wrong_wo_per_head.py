# applied Wo per head and summed, but cut Wo into per-head row blocks with reshape(hd, H, D) instead of (H, hd, D), interleaving the rows
# varies: right_fused.py

def mha_forward(x, Wq, Wk, Wv, Wo, n_heads):
    D = x.shape[-1]
    hd = D // n_heads
    q = split_heads(x @ Wq, n_heads)
    k = split_heads(x @ Wk, n_heads)
    v = split_heads(x @ Wv, n_heads)
    heads = causal_attention(q, k, v)                      # (..., H, T, hd)
    Wo_h = Wo.reshape(hd, n_heads, D).swapaxes(0, 1)        # (H, hd, D)
    return (heads @ Wo_h).sum(axis=-3)
