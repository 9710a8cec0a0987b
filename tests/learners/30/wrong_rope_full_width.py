# applies RoPE to the full-width projections before splitting into heads
"""Lesson 30: a LLaMA-style model in PyTorch: RMSNorm, RoPE, grouped-query attention, SwiGLU."""
import torch
import torch.nn.functional as F


# ---------------------------------------------------------------------------------------------
# Given: your work from earlier lessons (06 RMSNorm, 15 RoPE), written in torch.
# Call these; your code goes further down.
# ---------------------------------------------------------------------------------------------

def rmsnorm(x, gamma, eps=1e-5):
    """RMSNorm over the last dimension (lesson 06): x / sqrt(mean(x**2) + eps) * gamma.

    x: a float64 tensor of shape (..., D); gamma: a tensor of shape (D,), the learned gain.
    Note the default eps, 1e-5, is lesson 06's; pass the model's own.
    """
    mean_square = (x ** 2).mean(dim=-1, keepdim=True)
    return x / torch.sqrt(mean_square + eps) * gamma


def rope(x, positions, theta=10000.0):
    """Rotary position embedding in the rotate-half convention (lesson 15).

    x: a float64 tensor of shape (..., T, d), d even; positions: an int64 tensor of shape (T,).
    Column i is paired with column i + d/2 and the pair is rotated by the angle
    positions[t] * theta ** (-2 i / d), computed in float64. Returns a new tensor of the shape and
    dtype of x.
    """
    d = x.shape[-1]
    half = d // 2
    inv_freq = theta ** (-2.0 * torch.arange(half, dtype=torch.float64) / d)
    angles = positions.to(torch.float64)[:, None] * inv_freq[None, :]
    cos, sin = torch.cos(angles).to(x.dtype), torch.sin(angles).to(x.dtype)
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


# ---------------------------------------------------------------------------------------------
# Your turn. `prefix` names one block's parameters, e.g. "layers.0." for the first block:
# params[prefix + "Wq"] is that block's query weight.
# ---------------------------------------------------------------------------------------------

def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    B, T, D = x.shape
    hd = D // n_heads
    pos = torch.arange(T)
    q = rope(x @ params[prefix + "Wq"], pos, theta).view(B, T, n_heads, hd).transpose(1, 2)
    k = rope(x @ params[prefix + "Wk"], pos, theta).view(B, T, n_kv_heads, hd).transpose(1, 2)
    v = (x @ params[prefix + "Wv"]).view(B, T, n_kv_heads, hd).transpose(1, 2)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    return y.transpose(1, 2).reshape(B, T, D) @ params[prefix + "Wo"]


def mlp(x, params, prefix):
    gate = F.silu(x @ params[prefix + "W1"])
    up = x @ params[prefix + "W3"]
    return (gate * up) @ params[prefix + "W2"]


def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    h = x + causal_self_attention(rmsnorm(x, params[prefix + "norm1"], eps), params, prefix, n_heads, n_kv_heads, theta)
    return h + mlp(rmsnorm(h, params[prefix + "norm2"], eps), params, prefix)


def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    x = params["embed"][ids]
    i = 0
    while f"layers.{i}.norm1" in params:
        x = block(x, params, f"layers.{i}.", n_heads, n_kv_heads, theta, eps)
        i += 1
    return rmsnorm(x, params["norm"], eps) @ params["head"]
