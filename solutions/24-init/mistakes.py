"""Known mistakes for lesson 24 (GPT-2's initialisation, and the loss at initialisation)."""
import math

import torch

from grader.lessons.authoring import mistake


def draw(shape, rng, s):
    return torch.randn(*shape, generator=rng, dtype=torch.float64) * s


def is_gain(name):
    return name.split(".")[-2].startswith("ln_")


@mistake("std-one", hint=1, message="""\
Your weights are drawn from torch.randn without the factor std, so their standard deviation is 1
instead of 0.02. The logits are then about sqrt(width) in size instead of 0.02 sqrt(width): the
model starts confidently wrong, with a loss many nats above ln V, and training first has to undo
it. Multiply each draw by its standard deviation: torch.randn(*shape, generator=rng, ...) * s.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            params[name] = draw(shape, rng, 1.0)
    return params


@mistake("no-residual-scaling", hint=2, message="""\
Every weight gets std, including the two projections into the residual stream. GPT-2 draws
attn.c_proj.weight and mlp.c_proj.weight with std / sqrt(2 * n_layers): each block adds two
outputs to the stream, and without the scaling their variances pile up with depth, so a deep
model starts with a stream swamped by its blocks' noise.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            params[name] = draw(shape, rng, std)
    return params


@mistake("scaled-without-the-two", hint=2, message="""\
You scale the residual projections by 1 / sqrt(n_layers); GPT-2 scales them by
1 / sqrt(2 * n_layers). There are two residual additions per block (the attention's and the
MLP's), so 2 * n_layers outputs add up in the stream, and that is the number to divide the
variance by.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(n_layers) if name.endswith("c_proj.weight") else std
            params[name] = draw(shape, rng, s)
    return params


@mistake("every-block-weight-scaled", hint=2, message="""\
You scale every weight inside the blocks by 1 / sqrt(2 * n_layers), c_attn and c_fc included.
Only the two projections that write INTO the residual stream, attn.c_proj.weight and
mlp.c_proj.weight, are scaled; the projections that read from it (c_attn, c_fc) keep std.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(2 * n_layers) if name.startswith("transformer.h.") else std
            params[name] = draw(shape, rng, s)
    return params


@mistake("tied-head-drawn-again", hint=2, message="""\
You draw an output layer at the end and tie it by putting it in place of wte, so the token
embedding is drawn twice and ends up with the second draw. The output layer IS the token
embedding (logits = ln_f(x) @ wte.T): draw wte once, in its place at the head of param_shapes, and
draw nothing for the head.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std
            params[name] = draw(shape, rng, s)
    params["transformer.wte.weight"] = draw((vocab_size, width), rng, std)
    return params


@mistake("untied-head", hint=2, message="""\
You add an output layer of its own, "lm_head.weight", drawn separately. GPT-2's output layer is
tied to the token embedding: the logits are ln_f(x) @ wte.T, so there is no lm_head parameter to
draw (a separate one would be a different, larger model whose head and embedding drift apart).""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std
            params[name] = draw(shape, rng, s)
    params["lm_head.weight"] = draw((vocab_size, width), rng, std)
    return params


@mistake("biases-drawn", hint=1, message="""\
You draw the biases from the normal distribution too. GPT-2 starts every bias at zero (and every
layer norm gain at one), and draws nothing for them; drawing them also moves every later draw, so
the weights come out different too.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if is_gain(name) and name.endswith(".weight"):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std
            params[name] = draw(shape, rng, s)
    return params


@mistake("gains-zero", hint=1, message="""\
Your layer norms' gains (ln_1.weight, ln_2.weight, ln_f.weight) start at zero. A gain multiplies
the normalised vector, so a zero gain erases it: every block reads zeros and the final norm makes
all logits equal. Gains start at ONE, biases at zero.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias") or is_gain(name):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std
            params[name] = draw(shape, rng, s)
    return params


@mistake("positions-not-drawn", hint=1, message="""\
Your position table wpe starts at zero instead of being drawn. GPT-2 draws it like the token
embedding (std 0.02, right after wte, in the order of param_shapes); at zero every position looks
the same at the start, and every later draw comes out different because one draw is missing.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias") or name == "transformer.wpe.weight":
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            s = std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std
            params[name] = draw(shape, rng, s)
    return params


@mistake("drawn-in-float32", hint=1, message="""\
Your weights are drawn in float32, torch.randn's default dtype (and converted, or left so): a
float32 draw takes other numbers from the generator than a float64 one, so every weight differs,
and float32 keeps only about 7 digits. Draw in float64 directly:
torch.randn(*shape, generator=rng, dtype=torch.float64) * s.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape)
        elif is_gain(name):
            params[name] = torch.ones(shape)
        else:
            s = std / math.sqrt(2 * n_layers) if name.endswith("c_proj.weight") else std
            params[name] = torch.randn(*shape, generator=rng) * s
    return params


@mistake("fan-in-init", hint=1, message="""\
You draw each weight with standard deviation 1 / sqrt(fan_in) (its number of rows), as PyTorch's
default layers or Xavier/He initialisation would. GPT-2 uses one fixed standard deviation, std =
0.02, for every weight (torch.randn(...) * std, and std / sqrt(2 * n_layers) for the residual
projections), whatever its shape.""")
def gpt2_init(vocab_size, width, n_layers, n_positions, rng, std=0.02):
    params = {}
    for name, shape in param_shapes(vocab_size, width, n_layers, n_positions).items():
        if name.endswith(".bias"):
            params[name] = torch.zeros(shape, dtype=torch.float64)
        elif is_gain(name):
            params[name] = torch.ones(shape, dtype=torch.float64)
        else:
            params[name] = draw(shape, rng, 1 / math.sqrt(shape[0]))
    return params


@mistake("log2-of-vocab", hint=3, message="""\
Your uniform loss is log2(V), in bits. The cross-entropy is in nats (natural logarithms, as
F.cross_entropy computes it), so a uniform guess costs ln V = math.log(V) nats; log2 V is 1.44
times larger and the gap comes out negative.""")
def init_report(params, x, y, n_heads):
    with torch.no_grad():
        loss = batch_loss(gpt2_logits(params, x, n_heads), y).item()
    uniform = math.log2(params["transformer.wte.weight"].shape[0])
    return {"loss": loss, "uniform": uniform, "gap": loss - uniform}


@mistake("width-for-vocab", hint=3, message="""\
You take V from wte.shape[1], which is the model's width; wte has one ROW per token, shape
(V, width), so the vocabulary's size is wte.shape[0].""")
def init_report(params, x, y, n_heads):
    with torch.no_grad():
        loss = batch_loss(gpt2_logits(params, x, n_heads), y).item()
    uniform = math.log(params["transformer.wte.weight"].shape[1])
    return {"loss": loss, "uniform": uniform, "gap": loss - uniform}


@mistake("vocab-from-the-batch", hint=3, message="""\
You count V from the tokens in the batch. A uniform guess spreads probability over the whole
vocabulary the model predicts, every row of wte, not just the tokens one batch happens to use:
V = params["transformer.wte.weight"].shape[0].""")
def init_report(params, x, y, n_heads):
    with torch.no_grad():
        loss = batch_loss(gpt2_logits(params, x, n_heads), y).item()
    uniform = math.log(len(torch.unique(torch.cat([x.reshape(-1), y.reshape(-1)]))))
    return {"loss": loss, "uniform": uniform, "gap": loss - uniform}


@mistake("gap-reversed", hint=3, message="""\
Your gap is ln V - loss; the report's gap is loss - ln V, so that a model worse than a uniform
guess has a positive gap (the over-confident start of a bad initialisation shows as a large
positive number).""")
def init_report(params, x, y, n_heads):
    with torch.no_grad():
        loss = batch_loss(gpt2_logits(params, x, n_heads), y).item()
    uniform = math.log(params["transformer.wte.weight"].shape[0])
    return {"loss": loss, "uniform": uniform, "gap": uniform - loss}


@mistake("targets-shifted-again", hint=3, message="""\
You shift the targets again (logits[:, :-1] against y[:, 1:]), as lesson 13's loss does with raw
token ids. The targets from get_batch are already shifted: y[:, t] is the token after x[:, t], so
score logits[:, t] against y[:, t], which is what batch_loss does.""")
def init_report(params, x, y, n_heads):
    with torch.no_grad():
        logits = gpt2_logits(params, x, n_heads)
        loss = batch_loss(logits[:, :-1], y[:, 1:]).item()
    uniform = math.log(params["transformer.wte.weight"].shape[0])
    return {"loss": loss, "uniform": uniform, "gap": loss - uniform}
