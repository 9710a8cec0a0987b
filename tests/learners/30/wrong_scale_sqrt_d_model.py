# divides the scores by sqrt(D) instead of sqrt(hd)
# varies: right_manual_softmax.py

def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    B, T, D = x.shape
    hd = D // n_heads
    group = n_heads // n_kv_heads
    q = (x @ params[prefix + "Wq"]).reshape(B, T, n_heads, hd).permute(0, 2, 1, 3)
    k = (x @ params[prefix + "Wk"]).reshape(B, T, n_kv_heads, hd).permute(0, 2, 1, 3)
    v = (x @ params[prefix + "Wv"]).reshape(B, T, n_kv_heads, hd).permute(0, 2, 1, 3)
    positions = torch.arange(T)
    q, k = rope(q, positions, theta), rope(k, positions, theta)
    which = torch.arange(n_heads) // group
    k, v = k[:, which], v[:, which]
    scores = q @ k.transpose(-1, -2) / math.sqrt(D)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    scores = scores.masked_fill(future, float("-inf"))
    y = torch.softmax(scores, dim=-1) @ v
    return y.permute(0, 2, 1, 3).reshape(B, T, D) @ params[prefix + "Wo"]


def mlp(x, params, prefix):
    gate = F.silu(x @ params[prefix + "W1"])
    up = x @ params[prefix + "W3"]
    return (gate * up) @ params[prefix + "W2"]


def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    x = params["embed"][ids]
    i = 0
    while f"layers.{i}.norm1" in params:
        x = block(x, params, f"layers.{i}.", n_heads, n_kv_heads, theta, eps)
        i += 1
    return rmsnorm(x, params["norm"], eps) @ params["head"]
