# right: per-head loop with explicit column slices and an additive -inf mask
"""Lesson 12: a GPT-2 forward pass in PyTorch, from a state dict that uses GPT-2's own names."""
import math

import torch
import torch.nn.functional as F


# ---------------------------------------------------------------------------------------------
# Given: your work from earlier lessons (04 GELU, 05 layer norm), written in torch.
# Call these; your code goes further down.
# ---------------------------------------------------------------------------------------------

def gelu(z):
    """GELU in its tanh form (lesson 04): 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))).

    This is the GELU that GPT-2 uses ("gelu_new" in the transformers library).
    z: a float64 tensor of any shape. Returns a tensor of the same shape.
    """
    inner = math.sqrt(2.0 / math.pi) * (z + 0.044715 * z ** 3)
    return 0.5 * z * (1.0 + torch.tanh(inner))


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalization over the last dimension (lesson 05).

    x: a float64 tensor of shape (..., D); gamma, beta: tensors of shape (D,).
    Returns (x - mean) / sqrt(var + eps) * gamma + beta, with the mean and the population variance
    taken over the last dimension. eps=1e-5 is GPT-2's layer_norm_epsilon.
    """
    mean = x.mean(dim=-1, keepdim=True)
    centred = x - mean
    var = (centred ** 2).mean(dim=-1, keepdim=True)
    return centred / torch.sqrt(var + eps) * gamma + beta


# ---------------------------------------------------------------------------------------------
# Your turn. `prefix` names one block's parameters, e.g. "transformer.h.0." for the first block:
# params[prefix + "attn.c_attn.weight"] is that block's fused query/key/value weight.
# ---------------------------------------------------------------------------------------------

def causal_self_attention(x, params, prefix, n_heads):
    """GPT-2's causal multi-head self-attention, with the fused QKV projection.

    x: (B, T, D), the block's normalised input. params[prefix + "attn.c_attn.weight"] has shape
    (D, 3D) and its bias (3D,): columns 0..D-1 make the queries, D..2D-1 the keys, 2D..3D-1 the
    values. Head h uses columns h*D/H .. (h+1)*D/H - 1 of each. params[prefix + "attn.c_proj.weight"]
    (D, D) and its bias (D,) project the merged heads. Returns (B, T, D).
    """
    B, T, D = x.shape
    hs = D // n_heads
    W = params[prefix + "attn.c_attn.weight"]
    b = params[prefix + "attn.c_attn.bias"]
    q_all = x @ W[:, :D] + b[:D]
    k_all = x @ W[:, D:2 * D] + b[D:2 * D]
    v_all = x @ W[:, 2 * D:] + b[2 * D:]
    bias = torch.full((T, T), float("-inf"), dtype=x.dtype).triu(1)
    outs = []
    for h in range(n_heads):
        cols = slice(h * hs, (h + 1) * hs)
        s = q_all[..., cols] @ k_all[..., cols].transpose(1, 2) / hs ** 0.5 + bias
        outs.append(torch.softmax(s, dim=-1) @ v_all[..., cols])
    y = torch.cat(outs, dim=-1)
    return y @ params[prefix + "attn.c_proj.weight"] + params[prefix + "attn.c_proj.bias"]


def mlp(x, params, prefix):
    """GPT-2's MLP: widen to 4D with c_fc, tanh GELU, narrow back to D with c_proj.

    x: (B, T, D), the block's normalised input. params[prefix + "mlp.c_fc.weight"] has shape
    (D, 4D) and params[prefix + "mlp.c_proj.weight"] (4D, D), each with its bias. Returns (B, T, D).
    """
    z = x @ params[prefix + "mlp.c_fc.weight"] + params[prefix + "mlp.c_fc.bias"]
    g = 0.5 * z * (1 + torch.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z.pow(3))))
    return g @ params[prefix + "mlp.c_proj.weight"] + params[prefix + "mlp.c_proj.bias"]


def block(x, params, prefix, n_heads):
    """One pre-norm GPT-2 block: x + attention(ln_1(x)), then that + mlp(ln_2(that)).

    x: (B, T, D), the residual stream. Returns (B, T, D).
    """
    p = lambda n: params[prefix + n]
    h = x + causal_self_attention(layer_norm(x, p("ln_1.weight"), p("ln_1.bias")), params, prefix, n_heads)
    return h + mlp(layer_norm(h, p("ln_2.weight"), p("ln_2.bias")), params, prefix)


def gpt_forward(ids, params, n_heads):
    """The logits of a GPT-2 model for a batch of token ids.

    ids: an int64 tensor of shape (B, T), with T at most P, the number of positions.
    params: a dict of float64 tensors named as in GPT-2's state dict: "transformer.wte.weight"
        (V, D), "transformer.wpe.weight" (P, D), per block "transformer.h.{i}." followed by
        "ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias", "attn.c_proj.weight",
        "attn.c_proj.bias", "ln_2.weight", "ln_2.bias", "mlp.c_fc.weight", "mlp.c_fc.bias",
        "mlp.c_proj.weight", "mlp.c_proj.bias", and "transformer.ln_f.weight", "transformer.ln_f.bias".
        Every weight multiplies on the right (x @ W, W of shape (in, out)). The number of blocks is
        however many "transformer.h.{i}." groups the dict holds, possibly none.
    n_heads: the number of attention heads; it divides D.
    Returns the logits, a float64 tensor of shape (B, T, V). The LM head is tied to the token
    embedding: logits = ln_f(x) @ wte.T.
    """
    wte = params["transformer.wte.weight"]
    T = ids.shape[-1]
    x = wte.index_select(0, ids.flatten()).view(*ids.shape, -1) + params["transformer.wpe.weight"][:T].unsqueeze(0)
    idx = sorted({int(n.split(".")[2]) for n in params if n.startswith("transformer.h.")})
    for i in idx:
        x = block(x, params, "transformer.h.%d." % i, n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return torch.matmul(x, wte.transpose(0, 1))
