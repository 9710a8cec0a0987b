"""Known mistakes for lesson 30 (a LLaMA-style forward pass: RMSNorm, RoPE, GQA, SwiGLU)."""
import math

import torch
import torch.nn.functional as F

from grader.lessons.authoring import mistake


def _heads(t, n):
    B, T, W = t.shape
    return t.reshape(B, T, n, W // n).transpose(1, 2)


def _merge(y):
    B, H, T, hd = y.shape
    return y.transpose(1, 2).reshape(B, T, H * hd)


def _qkv(x, params, prefix, n_heads, n_kv_heads):
    return (_heads(x @ params[prefix + "Wq"], n_heads),
            _heads(x @ params[prefix + "Wk"], n_kv_heads),
            _heads(x @ params[prefix + "Wv"], n_kv_heads))


def _shared(t, n_heads):
    return t.repeat_interleave(n_heads // t.shape[1], dim=1)


def _attend(q, k, v, params, prefix):
    n_heads = q.shape[1]
    y = F.scaled_dot_product_attention(q, _shared(k, n_heads), _shared(v, n_heads), is_causal=True)
    return _merge(y) @ params[prefix + "Wo"]


def _layers(params):
    return sum(1 for name in params if name.endswith(".norm1"))


@mistake("post-norm", hint=1, message="""\
You normalise after each residual addition, `x = rmsnorm(x + causal_self_attention(x))`: the
post-norm order of the original Transformer. LLaMA is pre-norm, like GPT-2: each sub-layer reads an
RMS-normalised copy of the stream, `causal_self_attention(rmsnorm(x, norm1))`, and its output is
added to the stream, which itself is never normalised inside a block. The final norm before the head
is the only one the stream gets.""")
def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    attend = causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta)
    x = rmsnorm(x + attend, params[prefix + "norm1"], eps)
    return rmsnorm(x + mlp(x, params, prefix), params[prefix + "norm2"], eps)


@mistake("normalised-stream", hint=1, message="""\
You overwrite the stream with its normalised copy (`x = rmsnorm(x, norm1)`) and add the sub-layer's
output to that. Only the sub-layer's input is normalised; the residual adds its output to the stream
as it was: `x = x + causal_self_attention(rmsnorm(x, norm1), ...)`. The case whose attention output
is zeroed shows it: that sub-layer adds nothing, so the stream must pass through it unchanged.""")
def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    x = rmsnorm(x, params[prefix + "norm1"], eps)
    x = x + causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta)
    x = rmsnorm(x, params[prefix + "norm2"], eps)
    return x + mlp(x, params, prefix)


@mistake("norm1-for-both", hint=1, message="""\
Your MLP reads the stream normalised with norm1, the attention's gain, instead of its own norm2 (a
copy of the attention line). Each sub-layer has its own RMSNorm gain:
`causal_self_attention(rmsnorm(x, norm1))`, then `mlp(rmsnorm(x, norm2))`.""")
def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    u = rmsnorm(x, params[prefix + "norm1"], eps)
    x = x + causal_self_attention(u, params, prefix, n_heads, n_kv_heads, theta)
    return x + mlp(rmsnorm(x, params[prefix + "norm1"], eps), params, prefix)


@mistake("no-residual", hint=1, message="""\
Your block replaces the stream with each sub-layer's output (`x =
causal_self_attention(rmsnorm(x))`) instead of adding that output to it. The residual connection is
the `x +`: `x = x + causal_self_attention(...)`, then `x = x + mlp(...)`, so the stream keeps what
the embedding and earlier blocks wrote.""")
def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    u = rmsnorm(x, params[prefix + "norm1"], eps)
    x = causal_self_attention(u, params, prefix, n_heads, n_kv_heads, theta)
    return mlp(rmsnorm(x, params[prefix + "norm2"], eps), params, prefix)


@mistake("eps-not-passed", hint=3, message="""\
Your norms use eps = 1e-5, the default of the given `rmsnorm` (lesson 06's value), not the model's
`eps` argument: you call `rmsnorm(x, gain)` without it. LLaMA's norms use the eps of its
configuration (1e-6 by default here, as in the first LLaMA); pass it on to every norm, the final one
included: `rmsnorm(x, gain, eps)`. It matters most where the stream's numbers are small, as in the
case with small activations.""")
def block(x, params, prefix, n_heads, n_kv_heads, theta, eps):
    u = rmsnorm(x, params[prefix + "norm1"])
    x = x + causal_self_attention(u, params, prefix, n_heads, n_kv_heads, theta)
    return x + mlp(rmsnorm(x, params[prefix + "norm2"]), params, prefix)


@mistake("eps-not-passed")
def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    x = params["embed"][ids]
    for i in range(_layers(params)):
        x = block(x, params, f"layers.{i}.", n_heads, n_kv_heads, theta, eps)
    return rmsnorm(x, params["norm"]) @ params["head"]


@mistake("eps-outside-sqrt", hint=3, message="""\
Your RMSNorm adds eps to the root mean square, `x / (sqrt(mean(x**2)) + eps)`. RMSNorm adds it
inside the square root, `x / sqrt(mean(x**2) + eps)`, as the given `rmsnorm` does (call it, or
`F.rms_norm(x, (D,), gain, eps)`). The two differ little for large activations and a lot for small
ones: the case with small activations shows it.""")
def rmsnorm(x, gamma, eps=1e-5):
    return x / (torch.sqrt((x ** 2).mean(dim=-1, keepdim=True)) + eps) * gamma


@mistake("norm-subtracts-mean", hint=3, message="""\
Your norm subtracts the mean before dividing: that is a layer norm (without its bias), not RMSNorm.
RMSNorm only rescales: `x / sqrt(mean(x**2) + eps) * gain`, with the mean of the squares of x
itself, not of x minus its mean. Call the given `rmsnorm`.""")
def rmsnorm(x, gamma, eps=1e-5):
    centred = x - x.mean(dim=-1, keepdim=True)
    return centred / torch.sqrt((centred ** 2).mean(dim=-1, keepdim=True) + eps) * gamma


@mistake("no-final-norm", hint=1, message="""\
You skip the final RMSNorm: the stream goes from the last block straight into the head. LLaMA
normalises it once more, with its own gain `params["norm"]`, before the head, even with no blocks:
`rmsnorm(x, params["norm"], eps) @ params["head"]`.""")
def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    x = params["embed"][ids]
    for i in range(_layers(params)):
        x = block(x, params, f"layers.{i}.", n_heads, n_kv_heads, theta, eps)
    return x @ params["head"]


@mistake("tied-head", hint=1, message="""\
Your head reuses the token embedding, `x @ embed.T`, as GPT-2's tied head does. LLaMA's output head
is a matrix of its own, `params["head"]` of shape (D, V): the logits are `rmsnorm(x, params["norm"],
eps) @ params["head"]`, and the embedding is only read at the input.""")
def llama_forward(ids, params, n_heads, n_kv_heads, theta=10000.0, eps=1e-6):
    x = params["embed"][ids]
    for i in range(_layers(params)):
        x = block(x, params, f"layers.{i}.", n_heads, n_kv_heads, theta, eps)
    return rmsnorm(x, params["norm"], eps) @ params["embed"].T


@mistake("rope-on-values", hint=2, message="""\
You rotate the values as well as the queries and keys. RoPE belongs on the queries and keys only,
where the two rotations meet in a dot product and leave only the distance between the tokens; a
rotated value carries its absolute position into the output. Rotate `q` and `k`, leave `v` as
projected.""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    q, k, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    positions = torch.arange(x.shape[1])
    q, k, v = (rope(t, positions, theta) for t in (q, k, v))
    return _attend(q, k, v, params, prefix)


@mistake("rope-on-queries-only", hint=2, message="""\
You rotate the queries but not the keys. RoPE rotates both, by their own positions, so that in the
score q_m . k_n the two angles cancel to the distance m - n. With only the queries rotated, a score
depends on where the query sits. Apply `rope` to `k` too, with the same positions and theta.""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    q, k, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    return _attend(rope(q, torch.arange(x.shape[1]), theta), k, v, params, prefix)


@mistake("rope-before-split", hint=2, message="""\
You rotate the full-width queries and keys (`rope(x @ Wq, ...)`) and split them into heads
afterwards. RoPE works inside each head: a head's vector of hd = D / H numbers pairs column i with
column i + hd/2, with frequencies theta ** (-2i / hd). Over the full width the pairs reach into
other heads and the frequencies are spread over D columns. Split into heads first, then rotate the
tensors of shape (B, H, T, hd).""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    positions = torch.arange(x.shape[1])
    q = _heads(rope(x @ params[prefix + "Wq"], positions, theta), n_heads)
    k = _heads(rope(x @ params[prefix + "Wk"], positions, theta), n_kv_heads)
    v = _heads(x @ params[prefix + "Wv"], n_kv_heads)
    return _attend(q, k, v, params, prefix)


@mistake("rope-on-input", hint=2, message="""\
You rotate the block's input x before the projections, as if RoPE were a position embedding added at
the start. The projections would then mix the rotated pairs and the scores would no longer depend on
distances alone. RoPE turns the queries and keys of each head, after projection and the split into
heads.""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    xr = rope(x, torch.arange(x.shape[1]), theta)
    q, k, _ = _qkv(xr, params, prefix, n_heads, n_kv_heads)
    _, _, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    return _attend(q, k, v, params, prefix)


@mistake("rope-interleaved", hint=2, message="""\
You rotate adjacent pairs, columns (0, 1), (2, 3), ... (the interleaved convention of the original
RoPE paper and of Meta's own LLaMA code). This lesson, like lesson 15 and the `transformers`
library, uses the rotate-half convention: column i is paired with column i + hd/2. Call the given
`rope`.""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    def interleaved(t, positions):
        d = t.shape[-1]
        inv_freq = theta ** (-2.0 * torch.arange(d // 2, dtype=torch.float64) / d)
        angles = positions.to(torch.float64)[:, None] * inv_freq
        cos, sin = torch.cos(angles), torch.sin(angles)
        even, odd = t[..., 0::2], t[..., 1::2]
        return torch.stack([even * cos - odd * sin, odd * cos + even * sin], dim=-1).flatten(-2)
    q, k, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    positions = torch.arange(x.shape[1])
    return _attend(interleaved(q, positions), interleaved(k, positions), v, params, prefix)


@mistake("theta-not-passed", hint=2, message="""\
Your attention rotates with theta = 10000, the default of the given `rope`, not the model's `theta`
argument: you call `rope(q, positions)` without it. LLaMA 3, for one, uses 500000. Pass theta on
from `llama_forward` through `block` to every `rope` call.""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    q, k, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    positions = torch.arange(x.shape[1])
    return _attend(rope(q, positions), rope(k, positions), v, params, prefix)


@mistake("tile-kv-heads", hint=2, message="""\
You share the key/value heads round-robin: `k.repeat(1, g, 1, 1)` (or `torch.tile`, or indexing with
h % n_kv_heads) lays them out as kv0, kv1, kv0, kv1, ..., so query head h reads key/value head h %
n_kv_heads. In grouped-query attention the query heads come in consecutive groups: heads 0 .. g-1
share key/value head 0, the next g share head 1, i.e. head h reads h // g with g = n_heads /
n_kv_heads. Use `k.repeat_interleave(g, dim=1)` (what `repeat_kv` in `transformers` does). The two
agree with one key/value head or one per query head; only 1 < n_kv_heads < n_heads shows the
difference.""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    q, k, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    positions = torch.arange(x.shape[1])
    q, k = rope(q, positions, theta), rope(k, positions, theta)
    g = n_heads // n_kv_heads
    k, v = k.repeat(1, g, 1, 1), v.repeat(1, g, 1, 1)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return _merge(y) @ params[prefix + "Wo"]


@mistake("scale-by-d-model", hint=2, message="""\
You divide the attention scores by sqrt(D), the model width. Each head compares vectors of hd = D /
H numbers, so the scale is 1 / sqrt(hd), the head size (`F.scaled_dot_product_attention` takes it
from the last dimension of q once q is split into heads).""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    B, T, D = x.shape
    q, k, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    positions = torch.arange(T)
    q, k = rope(q, positions, theta), _shared(rope(k, positions, theta), n_heads)
    scores = q @ k.transpose(-2, -1) / math.sqrt(D)
    allowed = torch.tril(torch.ones(T, T, dtype=torch.bool))
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return _merge(weights @ _shared(v, n_heads)) @ params[prefix + "Wo"]


@mistake("no-causal-mask", hint=2, message="""\
Your attention lets every token see the whole sequence, later tokens included, so the first tokens'
logits change when more tokens follow. A language model predicts each token from the tokens before
it: pass `is_causal=True` to `F.scaled_dot_product_attention`, or set the scores of later keys to
-inf before the softmax.""")
def causal_self_attention(x, params, prefix, n_heads, n_kv_heads, theta):
    q, k, v = _qkv(x, params, prefix, n_heads, n_kv_heads)
    positions = torch.arange(x.shape[1])
    q, k = rope(q, positions, theta), rope(k, positions, theta)
    y = F.scaled_dot_product_attention(q, _shared(k, n_heads), _shared(v, n_heads))
    return _merge(y) @ params[prefix + "Wo"]


@mistake("silu-on-up-branch", hint=3, message="""\
You put SiLU on the W3 branch: `(x @ W1) * silu(x @ W3)`. In LLaMA's SwiGLU, W1 is the gate (the
library calls it gate_proj): `silu(x @ W1) * (x @ W3)`, then `@ W2`. The two are not the same
function of x.""")
def mlp(x, params, prefix):
    return ((x @ params[prefix + "W1"]) * F.silu(x @ params[prefix + "W3"])) @ params[prefix + "W2"]


@mistake("gelu-not-silu", hint=3, message="""\
Your gate uses GELU, GPT-2's activation. SwiGLU gates with SiLU (also called swish), silu(z) = z *
sigmoid(z): `F.silu(x @ W1) * (x @ W3)`.""")
def mlp(x, params, prefix):
    return (F.gelu(x @ params[prefix + "W1"]) * (x @ params[prefix + "W3"])) @ params[prefix + "W2"]


@mistake("no-gate", hint=3, message="""\
Your MLP has no gate: `silu(x @ W1) @ W2`, an ordinary MLP with SiLU, and W3 is never used. SwiGLU
multiplies the SiLU branch by a second, linear branch entry by entry before narrowing: `(silu(x @
W1) * (x @ W3)) @ W2`.""")
def mlp(x, params, prefix):
    return F.silu(x @ params[prefix + "W1"]) @ params[prefix + "W2"]
