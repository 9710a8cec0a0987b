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
    """Causal self-attention with RoPE on the queries and keys and grouped key/value heads.

    x: (B, T, D), the block's normalised input. params[prefix + "Wq"] is (D, D),
    params[prefix + "Wk"] and params[prefix + "Wv"] are (D, n_kv_heads * hd), where hd = D / n_heads
    is the head size, and params[prefix + "Wo"] is (D, D); no biases. Query head h uses key/value
    head h // (n_heads / n_kv_heads). Token t sits at position t (0 .. T-1). Returns (B, T, D).
    """
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def mlp(x, params, prefix):
    """The SwiGLU MLP: (silu(x @ W1) * (x @ W3)) @ W2, with silu(z) = z * sigmoid(z).

    x: (B, T, D), the block's normalised input. params[prefix + "W1"] (the gate) and
    params[prefix + "W3"] (the up projection) are (D, F); params[prefix + "W2"] is (F, D).
    Returns (B, T, D).
    """
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    """One pre-norm LLaMA block: h = x + causal_self_attention(rmsnorm(x, norm1)), then
    h + mlp(rmsnorm(h, norm2)).

    x: (B, T, D), the residual stream. Returns (B, T, D).
    """
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    """The logits of a LLaMA-style model for a batch of token ids.

    ids: an int64 tensor of shape (B, T), entries in 0 .. V-1.
    params: a dict of float64 tensors: "embed" (V, D); per block "layers.{i}." followed by
        "norm1" (D,), "Wq" (D, D), "Wk" and "Wv" (D, n_kv_heads * D / n_heads), "Wo" (D, D),
        "norm2" (D,), "W1" and "W3" (D, F), "W2" (F, D); then "norm" (D,) and "head" (D, V).
        Every weight multiplies on the right (x @ W). The number of blocks is however many
        "layers.{i}." groups the dict holds, possibly none.
    n_heads: the number of query heads H; it divides D. n_kv_heads: the number of key/value
        heads; it divides H.
    theta: RoPE's base; eps: the RMSNorm epsilon of every norm in the model.
    Returns the logits, a float64 tensor of shape (B, T, V): rmsnorm(x, norm) @ head, with a head
    of its own (not tied to the embedding).
    """
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")
