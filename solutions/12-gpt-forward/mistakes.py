"""Known mistakes for lesson 12 (a GPT-2 forward pass from GPT-2's own state-dict names)."""
import math

import torch
import torch.nn.functional as F

from grader.lessons.authoring import mistake


def _qkv(x, params, prefix):
    return x @ params[prefix + "attn.c_attn.weight"] + params[prefix + "attn.c_attn.bias"]


def _project(y, params, prefix):
    return y @ params[prefix + "attn.c_proj.weight"] + params[prefix + "attn.c_proj.bias"]


def _heads(t, n_heads):
    B, T, D = t.shape
    return t.reshape(B, T, n_heads, D // n_heads).transpose(1, 2)


def _merge(y):
    B, H, T, hs = y.shape
    return y.transpose(1, 2).reshape(B, T, H * hs)


@mistake("qkv-heads-first", hint=2, message="""\
You cut the fused projection into heads first and then into query, key and value within each head
(`qkv.view(B, T, H, 3 * hs)` split in three). That is the layout of some other models (Megatron,
GPT-NeoX), not GPT-2's. GPT-2's c_attn output holds all the queries in its first D columns, all the
keys in the next D and all the values in the last D: split the last dimension into three blocks of
D first (`qkv.split(D, dim=-1)`), then cut each block into heads.""")
def causal_self_attention(x, params, prefix, n_heads):
    B, T, D = x.shape
    hs = D // n_heads
    qkv = _qkv(x, params, prefix).reshape(B, T, n_heads, 3 * hs).transpose(1, 2)
    q, k, v = qkv.split(hs, dim=-1)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return _project(_merge(y), params, prefix)


@mistake("qkv-wrong-order", hint=2, message="""\
You take the keys from the first D columns of the fused projection and the queries from the next D.
GPT-2's c_attn output is ordered query, key, value: `q, k, v = qkv.split(D, dim=-1)`. Swapping q and
k is not harmless: with the causal mask, query i scores key j by q_i . k_j, and exchanging them
scores key i by query j instead, a different matrix.""")
def causal_self_attention(x, params, prefix, n_heads):
    D = x.shape[-1]
    k, q, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return _project(_merge(y), params, prefix)


@mistake("linear-transposes-weights", hint=2, message="""\
Your blocks stop on a shape error (a RuntimeError) in every case that has a block, which is what
happens when a weight is applied as PyTorch's linear layers apply theirs: `F.linear(x, W, b)`,
`nn.Linear` and `x @ W.T` all compute `x @ W.T + b`, because PyTorch stores a weight as (out, in).
GPT-2 stores every weight as (in, out) (its Conv1D layers), so c_attn, of shape (D, 3D), cannot be
used that way. Multiply on the right as stored: `x @ W + b`. If your error is elsewhere, the line
it names and the shapes in the table of the lesson will show which dimension is off.""")
def causal_self_attention(x, params, prefix, n_heads):
    D = x.shape[-1]
    qkv = F.linear(x, params[prefix + "attn.c_attn.weight"], params[prefix + "attn.c_attn.bias"])
    q, k, v = (_heads(t, n_heads) for t in qkv.split(D, dim=-1))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return F.linear(_merge(y), params[prefix + "attn.c_proj.weight"], params[prefix + "attn.c_proj.bias"])


@mistake("attn-proj-transposed", hint=2, message="""\
You multiply the merged heads by the transpose of attn.c_proj.weight (`y @ W.T`, or `F.linear`).
Because that weight is square, (D, D), no shape error warns you, but GPT-2 stores it as (in, out)
like every other weight, so the projection is `y @ W + b` with W as stored.""")
def causal_self_attention(x, params, prefix, n_heads):
    D = x.shape[-1]
    q, k, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    y = _merge(F.scaled_dot_product_attention(q, k, v, is_causal=True))
    return y @ params[prefix + "attn.c_proj.weight"].T + params[prefix + "attn.c_proj.bias"]


@mistake("scale-by-sqrt-d-model", hint=2, message="""\
You divide the attention scores by sqrt(D), the model width. Each head compares vectors of only
hs = D / H numbers, so the scale is 1 / sqrt(hs), the head size. With H heads your scores are
sqrt(H) times too small and every head's attention is too flat.""")
def causal_self_attention(x, params, prefix, n_heads):
    B, T, D = x.shape
    q, k, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    scores = q @ k.transpose(-2, -1) / math.sqrt(D)
    allowed = torch.tril(torch.ones(T, T, dtype=torch.bool))
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return _project(_merge(weights @ v), params, prefix)


@mistake("no-causal-mask", hint=2, message="""\
Your attention lets every token look at the whole sequence, later tokens included, so the logits for
the first tokens change when more tokens follow. A language model predicts each next token from the
tokens before it only: pass `is_causal=True` to `scaled_dot_product_attention`, or set the scores of
later keys to -inf before the softmax.""")
def causal_self_attention(x, params, prefix, n_heads):
    D = x.shape[-1]
    q, k, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    return _project(_merge(F.scaled_dot_product_attention(q, k, v)), params, prefix)


@mistake("mask-after-softmax", hint=2, message="""\
You take the softmax over all keys, then zero the future keys' weights and divide by what is left.
On paper that equals a softmax over the allowed keys, but not in floating point: when a future key
scores far above the others, exp of every allowed score, less the largest, is exactly 0, and you
divide 0 by 0 (NaN). Mask first: set the scores of future keys to -inf, then take the softmax.""")
def causal_self_attention(x, params, prefix, n_heads):
    B, T, D = x.shape
    q, k, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D // n_heads), dim=-1)
    weights = weights * torch.tril(torch.ones(T, T, dtype=weights.dtype))
    weights = weights / weights.sum(dim=-1, keepdim=True)
    return _project(_merge(weights @ v), params, prefix)


@mistake("one-head", hint=2, message="""\
Your attention ignores n_heads: it runs a single head over the full width D (and scales by sqrt(D)).
GPT-2 cuts the queries, keys and values into H heads of hs = D / H numbers, each with its own
softmax, and joins the heads' outputs again before c_proj: reshape (B, T, D) to (B, H, T, hs).""")
def causal_self_attention(x, params, prefix, n_heads):
    D = x.shape[-1]
    q, k, v = _qkv(x, params, prefix).split(D, dim=-1)
    return _project(F.scaled_dot_product_attention(q, k, v, is_causal=True), params, prefix)


@mistake("merge-without-transpose", hint=2, message="""\
You merge the heads with a plain reshape from (B, H, T, hs) to (B, T, D). That reads the numbers in
memory order, head by head, so each row mixes several tokens of one head. Bring the head axis next to
hs first: `y.transpose(1, 2).reshape(B, T, D)` (lesson 07).""")
def causal_self_attention(x, params, prefix, n_heads):
    B, T, D = x.shape
    q, k, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return _project(y.reshape(B, T, D), params, prefix)


@mistake("gelu-erf", hint=3, message="""\
Your MLP uses the exact GELU, x * Phi(x) with the error function (`F.gelu(x)` with its default
`approximate="none"`, or `nn.GELU()`). GPT-2 was trained with the tanh form, the `gelu` given at the
top of your file (`approximate="tanh"`, "gelu_new" in the transformers library). The two differ by up
to about 5e-4, enough to move the logits. Call the given `gelu`.""")
def mlp(x, params, prefix):
    h = F.gelu(x @ params[prefix + "mlp.c_fc.weight"] + params[prefix + "mlp.c_fc.bias"])
    return h @ params[prefix + "mlp.c_proj.weight"] + params[prefix + "mlp.c_proj.bias"]


@mistake("no-biases", hint=3, message="""\
You leave out the biases of the linear maps (c_attn, c_proj, c_fc): `x @ W` alone. GPT-2 has a bias
on every one of them, stored beside the weight as "...bias"; each map is `x @ W + b`.""")
def causal_self_attention(x, params, prefix, n_heads):
    D = x.shape[-1]
    qkv = x @ params[prefix + "attn.c_attn.weight"]
    q, k, v = (_heads(t, n_heads) for t in qkv.split(D, dim=-1))
    y = _merge(F.scaled_dot_product_attention(q, k, v, is_causal=True))
    return y @ params[prefix + "attn.c_proj.weight"]


@mistake("no-biases")
def mlp(x, params, prefix):
    return gelu(x @ params[prefix + "mlp.c_fc.weight"]) @ params[prefix + "mlp.c_proj.weight"]


@mistake("post-norm", hint=1, message="""\
You normalise after each residual addition, `x = ln_1(x + attn(x))`: that is the post-norm layout of
the original Transformer (and of GPT-1). GPT-2 is pre-norm: each sub-layer reads a normalised copy,
`attn(ln_1(x))`, and its output is added to the stream, which itself is never normalised inside a
block. That is also why GPT-2 needs ln_f at the very end.""")
def block(x, params, prefix, n_heads):
    x = layer_norm(x + causal_self_attention(x, params, prefix, n_heads),
                   params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"])
    return layer_norm(x + mlp(x, params, prefix), params[prefix + "ln_2.weight"],
                      params[prefix + "ln_2.bias"])


@mistake("normalised-stream", hint=1, message="""\
You overwrite the stream with its normalised copy (`x = ln_1(x)`) and add the sub-layer's output to
that. In a pre-norm block only the sub-layer's input is normalised; the residual adds its output to
the stream as it was: `x = x + attn(ln_1(x))`. The cases with a zeroed c_proj show it: that
sub-layer then adds nothing, so the stream must come out unchanged, not normalised.""")
def block(x, params, prefix, n_heads):
    x = layer_norm(x, params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"])
    x = x + causal_self_attention(x, params, prefix, n_heads)
    x = layer_norm(x, params[prefix + "ln_2.weight"], params[prefix + "ln_2.bias"])
    return x + mlp(x, params, prefix)


@mistake("parallel-sublayers", hint=1, message="""\
Your MLP reads ln_2 of the block's input x, not of the stream after attention, so the two
sub-layers run side by side (the "parallel" layout of GPT-J and GPT-NeoX). In GPT-2 they run one
after the other: `x = x + attn(ln_1(x))`, and then `x = x + mlp(ln_2(x))` with that new x, so the MLP
sees what attention just wrote.""")
def block(x, params, prefix, n_heads):
    a = causal_self_attention(layer_norm(x, params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"]),
                              params, prefix, n_heads)
    m = mlp(layer_norm(x, params[prefix + "ln_2.weight"], params[prefix + "ln_2.bias"]), params, prefix)
    return x + a + m


@mistake("no-final-layer-norm", hint=1, message="""\
You skip the final layer norm: the stream goes from the last block straight into the head. GPT-2
normalises it once more with `transformer.ln_f` (its own weight and bias) before the tied head, even
with no blocks at all. Pre-norm blocks never normalise the stream itself, so this last norm is the
only one it gets.""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe[torch.arange(ids.shape[1])]
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    return x @ wte.T


@mistake("lm-head-key", hint=1, message="""\
Your code stops on a KeyError in every case: it asks the dict for a name it does not hold. The
usual one is "lm_head.weight": the library's state dict lists it, but GPT-2's LM head is tied to the
token embedding, the same matrix, so this dict holds it once, as "transformer.wte.weight". The
logits are `ln_f(x) @ wte.T`, with wte of shape (V, D). Otherwise compare the key in the error with
the names in the lesson's table, letter by letter ("transformer.h.0.", with the trailing dot).""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe[torch.arange(ids.shape[1])]
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ params["lm_head.weight"].T


@mistake("no-position-embeddings", hint=1, message="""\
You use the token embeddings alone. Attention by itself does not know where a token sits, so GPT-2
adds a learned position embedding: the input to the first block is `wte[ids] + wpe[positions]`,
with positions 0, 1, ..., T-1.""")
def gpt_forward(ids, params, n_heads):
    wte = params["transformer.wte.weight"]
    x = wte[ids]
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T


@mistake("positions-from-ids", hint=1, message="""\
You index the position table with the token ids (`wpe[ids]`). The position embedding depends on
where a token sits, not on which token it is: the token at position t gets row t of wpe, whatever
its id, so use `wpe[torch.arange(T)]` (broadcast over the batch). Ids can also exceed the table's P
rows.""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe[ids]
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T


@mistake("whole-position-table", hint=1, message="""\
You add the whole position table, `wte[ids] + wpe`, which only lines up when the sequence is exactly
P tokens long. GPT-2's table has a row for every position it can handle; a sequence of T tokens uses
the first T rows, `wpe[:T]`.""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T



@mistake("ln-1-for-both", hint=3, message="""\
Your MLP reads the stream normalised with ln_1, the attention's layer norm, instead of its own ln_2
(a copy-paste of the attention line). Each sub-layer has its own layer norm with its own gain and
bias: `x = x + attn(ln_1(x))`, then `x = x + mlp(ln_2(x))`.""")
def block(x, params, prefix, n_heads):
    ln1 = lambda t: layer_norm(t, params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"])
    x = x + causal_self_attention(ln1(x), params, prefix, n_heads)
    return x + mlp(ln1(x), params, prefix)


@mistake("no-residual", hint=1, message="""\
Your block replaces the stream with each sub-layer's output (`x = attn(ln_1(x))`) instead of adding
that output to it. The residual connection is the `x +`: `x = x + attn(ln_1(x))`, then
`x = x + mlp(ln_2(x))`, so the stream keeps what the embeddings and earlier blocks wrote.""")
def block(x, params, prefix, n_heads):
    x = causal_self_attention(layer_norm(x, params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"]),
                              params, prefix, n_heads)
    return mlp(layer_norm(x, params[prefix + "ln_2.weight"], params[prefix + "ln_2.bias"]), params, prefix)


@mistake("no-attention-scale", hint=2, message="""\
Your attention scores are the plain dot products q . k, not divided by sqrt(hs). Without the scale
the scores grow with the head size and the softmax is too sharp. Divide by sqrt(hs), the head size
D / H (`F.scaled_dot_product_attention` does it for you).""")
def causal_self_attention(x, params, prefix, n_heads):
    B, T, D = x.shape
    q, k, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    scores = q @ k.transpose(-2, -1)
    allowed = torch.tril(torch.ones(T, T, dtype=torch.bool))
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return _project(_merge(weights @ v), params, prefix)


@mistake("mask-hides-self", hint=2, message="""\
Your causal mask also hides the diagonal, so a token cannot see itself, and the first token sees no
key at all: its softmax is over nothing but -inf, which gives NaN. Hide only the keys after the
query: `torch.triu(ones, diagonal=1)` (or keep `torch.tril(ones)`, diagonal included).""")
def causal_self_attention(x, params, prefix, n_heads):
    B, T, D = x.shape
    q, k, v = (_heads(t, n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    scores = q @ k.transpose(-2, -1) / math.sqrt(D // n_heads)
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool))
    weights = torch.softmax(scores.masked_fill(hidden, float("-inf")), dim=-1)
    return _project(_merge(weights @ v), params, prefix)


@mistake("heads-without-transpose", hint=2, message="""\
You cut the queries, keys and values into heads with a single reshape to (B, H, T, hs). A reshape
reads the numbers in memory order, so each "head" gets pieces of several tokens. A head owns columns
h*hs .. (h+1)*hs - 1 of every token: reshape to (B, T, H, hs) first, then `.transpose(1, 2)`.""")
def causal_self_attention(x, params, prefix, n_heads):
    B, T, D = x.shape
    q, k, v = (t.reshape(B, n_heads, T, D // n_heads) for t in _qkv(x, params, prefix).split(D, dim=-1))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return _project(y.reshape(B, T, D), params, prefix)


@mistake("relu-mlp", hint=3, message="""\
Your MLP uses ReLU. GPT-2's MLP uses GELU, in its tanh form: call the given `gelu` on the c_fc output
(ReLU was the original Transformer's choice, not GPT-2's).""")
def mlp(x, params, prefix):
    h = torch.relu(x @ params[prefix + "mlp.c_fc.weight"] + params[prefix + "mlp.c_fc.bias"])
    return h @ params[prefix + "mlp.c_proj.weight"] + params[prefix + "mlp.c_proj.bias"]


@mistake("gelu-sigmoid", hint=3, message="""\
Your MLP uses the sigmoid approximation of GELU, `z * sigmoid(1.702 z)`. GPT-2 uses the tanh form,
`0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3)))`, the `gelu` given at the top of your file; the two
differ by up to about 0.02.""")
def mlp(x, params, prefix):
    z = x @ params[prefix + "mlp.c_fc.weight"] + params[prefix + "mlp.c_fc.bias"]
    return (z * torch.sigmoid(1.702 * z)) @ params[prefix + "mlp.c_proj.weight"] \
        + params[prefix + "mlp.c_proj.bias"]


@mistake("head-not-transposed", hint=1, message="""\
Your code stops on a shape error in every case, even the one with no blocks, where only the
embeddings, ln_f and the head run: the usual cause is a tied head that multiplies by wte as stored,
(V, D), where the stream is (B, T, D). Token j's logit is the dot product with row j of wte, so the
head is `ln_f(x) @ wte.T`, giving (B, T, V).""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe[torch.arange(ids.shape[1])]
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte


@mistake("positions-from-one", hint=1, message="""\
You take the position rows from 1 to T (`wpe[1:T+1]`). Positions count from 0: the first token gets
row 0 of wpe, so the rows are `wpe[:T]` (or `wpe[torch.arange(T)]`).""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    T = ids.shape[1]
    x = wte[ids] + wpe[1:T + 1]
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T


@mistake("blocks-never-run", hint=1, message="""\
Your model never runs its blocks: the logits are those of the embeddings, ln_f and the head alone,
so only the case with no blocks passes. Usually the count of blocks comes out 0, for instance from
names that start with "h." (they start with "transformer.h."). Count the "transformer.h.{i}." groups
in the dict, e.g. the names that end with ".ln_1.weight".""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe[torch.arange(ids.shape[1])]
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T


@mistake("too-many-blocks", hint=1, message="""\
Your code stops on a KeyError for a block the dict does not hold: it counts more blocks than there
are. A count of names that contain, say, "ln_1" finds two per block (the weight and the bias), and a
hard-coded 12 is GPT-2 small's count, not this dict's. Count one name per block, e.g. those ending
with ".ln_1.weight".""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe[torch.arange(ids.shape[1])]
    n_layers = sum(1 for name in params if ".ln_1." in name)
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T


@mistake("no-attention-residual", hint=1, message="""\
Your block replaces the stream with the attention sub-layer's output (`x = attn(ln_1(x))`) and
adds only the MLP's. Both sub-layers add to the stream: `x = x + attn(ln_1(x))`, then
`x = x + mlp(ln_2(x))`, so the stream keeps what the embeddings and earlier blocks wrote.""")
def block(x, params, prefix, n_heads):
    x = causal_self_attention(layer_norm(x, params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"]),
                              params, prefix, n_heads)
    return x + mlp(layer_norm(x, params[prefix + "ln_2.weight"], params[prefix + "ln_2.bias"]),
                   params, prefix)


@mistake("no-mlp-residual", hint=1, message="""\
Your block adds the attention sub-layer to the stream but returns the MLP's output alone
(`return mlp(ln_2(x))`). Both sub-layers add to the stream: `return x + mlp(ln_2(x))`.""")
def block(x, params, prefix, n_heads):
    x = x + causal_self_attention(layer_norm(x, params[prefix + "ln_1.weight"], params[prefix + "ln_1.bias"]),
                                  params, prefix, n_heads)
    return mlp(layer_norm(x, params[prefix + "ln_2.weight"], params[prefix + "ln_2.bias"]), params, prefix)


@mistake("no-token-embeddings", hint=1, message="""\
Your stream starts from the position embeddings alone: the tokens' own vectors, `wte[ids]`, are
never added, so every sequence of the same length gives the same logits. The input of the first
block is `wte[ids] + wpe[torch.arange(T)]`, shape (B, T, D).""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wpe[torch.arange(ids.shape[1])].expand(ids.shape[0], -1, -1)
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T


@mistake("one-block-short", hint=1, message="""\
You run one block fewer than the dict holds (`range(n_layers - 1)`, or blocks numbered from 1): the
last block's weights are never used. Blocks are numbered 0 .. L-1, and all L of them run, in
order: `for i in range(n_layers)`.""")
def gpt_forward(ids, params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    x = wte[ids] + wpe[torch.arange(ids.shape[1])]
    n_layers = sum(1 for name in params if name.endswith(".ln_1.weight"))
    for i in range(n_layers - 1):
        x = block(x, params, f"transformer.h.{i}.", n_heads)
    x = layer_norm(x, params["transformer.ln_f.weight"], params["transformer.ln_f.bias"])
    return x @ wte.T
