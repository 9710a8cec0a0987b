# query head h reads key/value head h % n_kv_heads
# varies: right_head_loop.py

def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    B, T, D = x.shape
    hd = D // n_heads
    q_all = x @ params[prefix + "Wq"]
    k_all = x @ params[prefix + "Wk"]
    v_all = x @ params[prefix + "Wv"]
    pos = torch.arange(0, T + 0)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    outs = []
    for h in range(n_heads):
        j = h % n_kv_heads
        q = rope(q_all[..., h * hd:(h + 1) * hd], pos, theta)
        k = rope(k_all[..., j * hd:(j + 1) * hd], pos, theta)
        v = v_all[..., j * hd:(j + 1) * hd]
        s = (q @ k.transpose(1, 2)) / hd ** 0.5
        s = torch.where(mask, s, torch.tensor(float("-inf"), dtype=s.dtype))
        outs.append(torch.softmax(s, dim=-1) @ v)
    return torch.cat(outs, dim=-1) @ params[prefix + "Wo"]
