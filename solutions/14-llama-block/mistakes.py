"""Known mistakes for lesson 14 (a LLaMA-style transformer block)."""
import numpy as np

from grader.lessons.authoring import mistake


@mistake("normalised-stream", hint=1, message="""\
Your block normalises the stream itself (`x = rmsnorm(x, ...)`) and then adds the sub-layer's output
to that normalised value, so the original x is lost. In a pre-norm block only a copy is normalised:
the sub-layer reads `rmsnorm(x)`, but its output is added to x as it was. The quick test shows it:
with Wo = 0 and W2 = 0 the block must hand back x untouched, and yours returns a rescaled x.""")
def transformer_block(x, p, n_heads):
    x = rmsnorm(x, p["norm1"])
    h = x + mha_forward(x, p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    h = rmsnorm(h, p["norm2"])
    return h + swiglu_mlp(h, p["W1"], p["W3"], p["W2"])


@mistake("post-norm", hint=1, message="""\
You normalise after the residual addition (`h = rmsnorm(x + attention(x))`): that is the post-norm
layout of the original Transformer, not the pre-norm layout this block uses. In a LLaMA-style block
each sub-layer reads a normalised copy of the stream, and its output is added to the un-normalised
stream, which is never rescaled. Move the RMSNorm inside, onto the sub-layer's input.""")
def transformer_block(x, p, n_heads):
    h = rmsnorm(x + mha_forward(x, p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads), p["norm1"])
    return rmsnorm(h + swiglu_mlp(h, p["W1"], p["W3"], p["W2"]), p["norm2"])


@mistake("mlp-reads-x", hint=1, message="""\
Your MLP sub-layer reads `rmsnorm(x, ...)` instead of `rmsnorm(h, ...)`, so it never sees what
attention just added: the two sub-layers run side by side instead of one after the other. The
second line of the block works on h, the stream as the first sub-layer left it: normalise h and
feed that to the MLP.""")
def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return h + swiglu_mlp(rmsnorm(x, p["norm2"]), p["W1"], p["W3"], p["W2"])


@mistake("one-gain-for-both", hint=3, message="""\
You use `p["norm1"]` for both RMSNorms. Each norm has its own learned gain: the one in front of
attention is `norm1` and the one in front of the MLP is `norm2`. With unit gains the two would
agree, which is why the cases use different, non-unit gains for each.""")
def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return h + swiglu_mlp(rmsnorm(h, p["norm1"]), p["W1"], p["W3"], p["W2"])


@mistake("missing-mlp-residual", hint=1, message="""\
Your block returns the MLP's output on its own, without adding it to h. Each sub-layer only
computes a correction; the residual connection adds that correction to the stream, so the block
ends with `h + swiglu_mlp(...)`. Without it, everything attention contributed, and x itself, is
thrown away.""")
def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return swiglu_mlp(rmsnorm(h, p["norm2"]), p["W1"], p["W3"], p["W2"])


@mistake("swapped-gate", hint=2, message="""\
You apply SiLU to `u @ W3` and multiply by `u @ W1`: the two branches are swapped. The weights are
not interchangeable, because SiLU is not symmetric (SiLU(2) is about 1.762 but SiLU(-2) only about
-0.238), so which branch goes through it changes the result. The formula is `silu(u @ W1) * (u @ W3)`.""")
def swiglu_mlp(u, W1, W3, W2):
    return (silu(u @ W3) * (u @ W1)) @ W2


@mistake("silu-on-both-branches", hint=2, message="""\
You pass both branches through SiLU. Only the `u @ W1` branch goes through the activation; the
`u @ W3` branch stays linear, and the elementwise product of the two is what makes the unit
"gated". Compute `silu(u @ W1) * (u @ W3)`.""")
def swiglu_mlp(u, W1, W3, W2):
    return (silu(u @ W1) * silu(u @ W3)) @ W2


@mistake("sigmoid-instead-of-silu", hint=2, message="""\
Your `silu` returns the sigmoid of z, a number between 0 and 1, but SiLU is z times its sigmoid.
That factor z is what lets large positive inputs pass almost unchanged (SiLU(20) is about 20), while
the sigmoid stays at 1. Multiply: `z * sigmoid(z)`.""")
def silu(z):
    return 0.5 * (1.0 + np.tanh(z / 2.0))


@mistake("naive-sigmoid", hint=2, message="""\
Your sigmoid is `1 / (1 + exp(-z))`. At z = -1000, `exp(1000)` overflows: numpy warns, and where
warnings are errors the call fails. The answer itself is harmless (about 0), so compute it with a
formula that never builds a huge number: sigmoid(z) = 0.5 * (1 + tanh(z / 2)), as in lesson 04.""")
def silu(z):
    return z / (1.0 + np.exp(-z))


@mistake("exp-ratio-sigmoid", hint=2, message="""\
Your sigmoid is `exp(z) / (1 + exp(z))`. At z = +1000 both `exp` calls overflow to `inf`, and
`inf / inf` is `nan`, after an overflow warning. Use the tanh form from lesson 04,
sigmoid(z) = 0.5 * (1 + tanh(z / 2)): tanh saturates at -1 and 1, so nothing can overflow.""")
def silu(z):
    return z * np.exp(z) / (1.0 + np.exp(z))


@mistake("where-evaluates-both", hint=2, message="""\
You pick between two sigmoid formulas with `np.where`, one for positive z and one for negative z.
The idea is sound, but `np.where` is not an if: numpy computes both formulas on every entry first
and only then chooses, so the unsafe one still overflows at z = +-1000. Use the single formula
sigmoid(z) = 0.5 * (1 + tanh(z / 2)) from lesson 04, which is safe everywhere.""")
def silu(z):
    return z * np.where(z >= 0, 1.0 / (1.0 + np.exp(-z)), np.exp(z) / (1.0 + np.exp(z)))


@mistake("missing-attention-residual", hint=1, message="""\
Your first line sets h to the attention output alone, `h = mha_forward(rmsnorm(x), ...)`, without
adding it to x, so the stream x is thrown away. The residual connection adds the sub-layer's output
to the stream: `h = x + mha_forward(rmsnorm(x, p["norm1"]), ...)`.""")
def transformer_block(x, p, n_heads):
    h = mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return h + swiglu_mlp(rmsnorm(h, p["norm2"]), p["W1"], p["W3"], p["W2"])


@mistake("gains-swapped", hint=3, message="""\
You use `p["norm2"]` in front of attention and `p["norm1"]` in front of the MLP. The gains belong to
their sub-layers in order: norm1 for the attention sub-layer (the first line), norm2 for the MLP
sub-layer (the second).""")
def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm2"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)
    return h + swiglu_mlp(rmsnorm(h, p["norm1"]), p["W1"], p["W3"], p["W2"])


@mistake("no-gate-branch", hint=2, message="""\
Your MLP is `silu(u @ W1) @ W2`: the second branch, `u @ W3`, is missing, so this is a plain MLP, not
SwiGLU. The SiLU branch is multiplied entry by entry by the linear branch before narrowing:
`(silu(u @ W1) * (u @ W3)) @ W2`.""")
def swiglu_mlp(u, W1, W3, W2):
    return silu(u @ W1) @ W2


@mistake("gelu-instead-of-silu", hint=2, message="""\
Your activation is GELU (the tanh form of lesson 04, as in GPT-2), not SiLU. The two curves look
alike but differ (GELU(1) is about 0.841, SiLU(1) about 0.731). LLaMA's MLP uses SiLU, z * sigmoid(z),
with sigmoid(z) = 0.5 * (1 + tanh(z / 2)).""")
def silu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)))


@mistake("tanh-without-half", hint=2, message="""\
Your sigmoid is `0.5 * (1 + tanh(z))`, without halving z inside the tanh: that is sigmoid(2z), not
sigmoid(z). The identity is sigmoid(z) = 0.5 * (1 + tanh(z / 2)), so SiLU is
`z * 0.5 * (1 + np.tanh(z / 2))`.""")
def silu(z):
    return z * 0.5 * (1.0 + np.tanh(z))


@mistake("values-from-wk", hint=3, message="""\
You pass `p["Wk"]` where `mha_forward` expects the value weight (a copy-paste slip in the call),
so the values are computed with the key projection. Pass the four weights in the order the function
takes them: `mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)`.""")
def transformer_block(x, p, n_heads):
    h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wk"], p["Wo"], n_heads)
    return h + swiglu_mlp(rmsnorm(h, p["norm2"]), p["W1"], p["W3"], p["W2"])
