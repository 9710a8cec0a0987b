# %% [markdown]
# # Capstone: train your GPT and let it write
#
# This notebook puts the roadmap together. It trains a small GPT from scratch on a CPU for a minute
# or two and samples from it before and after, using **your own functions** from the lessons:
#
# | piece | lesson | function |
# |---|---|---|
# | the model's forward pass (with its token and position embeddings, lesson 11) | 12 | `gpt_forward` |
# | the next-token loss | 13 | `lm_loss` |
# | turning logits into probabilities, and sampling | 18 | `next_token_probs`, `sample` |
# | generation with a context window | 20 | `generate` |
# | the AdamW update | 22 | `adamw_step` |
#
# Each piece is loaded by name from `exercises/NN-slug/solution.py`. A piece you have not finished
# yet is replaced by the workbook's reference (from `solutions/`), and the notebook says so. Set
# `WORKBOOK_CAPSTONE_CODE=solutions` to run on the references only.
#
# Run it as a notebook (each `# %%` is a cell) or as a plain script: `make capstone`.
# Settings, all optional, from the environment:
#
# * `WORKBOOK_CAPSTONE_STEPS`: training steps (default 500; a test uses a few dozen).
# * `WORKBOOK_CAPSTONE_SECONDS`: stop training early after this many seconds (default 150), so a
#   slow or busy machine still finishes in a few minutes.
# * `WORKBOOK_CAPSTONE_CODE`: `exercises` (default) or `solutions`.
# * `WORKBOOK_CAPSTONE_PLOT`: where to save the loss curve (default `capstone-loss.png`).
# * `OMP_NUM_THREADS`: how many threads torch uses (default: the machine's cores, up to 4). On a
#   busy machine, 1 is much faster: threads that wait for each other spin on cores others need.

# %%
import importlib.util
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
THREADS = os.environ.get("OMP_NUM_THREADS", "")     # the usual setting, when it names a number
torch.set_num_threads(int(THREADS) if THREADS.isdigit() and int(THREADS) > 0
                      else max(1, min(4, os.cpu_count() or 1)))
STEPS = int(os.environ.get("WORKBOOK_CAPSTONE_STEPS", "500"))
BUDGET = float(os.environ.get("WORKBOOK_CAPSTONE_SECONDS", "150"))
CODE = os.environ.get("WORKBOOK_CAPSTONE_CODE", "exercises")
PLOT = os.environ.get("WORKBOOK_CAPSTONE_PLOT", "capstone-loss.png")
if CODE not in ("exercises", "solutions"):
    sys.exit(f"WORKBOOK_CAPSTONE_CODE must be 'exercises' or 'solutions', not {CODE!r}")


def find_root():
    """The workbook's folder: the first one upwards that holds solutions/roadmap.toml."""
    start = Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd()
    for folder in (start, *start.parents):
        if (folder / "solutions" / "roadmap.toml").is_file():
            return folder
    sys.exit("Run this notebook from inside the workbook (no solutions/roadmap.toml found above "
             f"{start}).")


ROOT = find_root()
started = time.time()

# %% [markdown]
# ## The language it learns
#
# The training text is written by this notebook, so we know its rules and can check whether the
# model learned them. It is one long line of sentences such as
#
# `ana sees bo. bo likes cy. cy helps ana. ...`
#
# Three rules hold everywhere:
#
# 1. **Form**: a sentence is *name verb name* and a full stop: names `ana bo cy dee eli fay`,
#    verbs `sees likes helps calls`.
# 2. **Two people**: the two names in a sentence differ.
# 3. **Chain**: each sentence starts with the name the previous sentence ended with.
#
# Rules 1 and 2 can be learned from a few characters of context. Rule 3 needs the model to look
# back past the verb into the previous sentence: that is attention's job. The model reads
# characters, so it has to learn the words too.

# %%
NAMES = ["ana", "bo", "cy", "dee", "eli", "fay"]
VERBS = ["sees", "likes", "helps", "calls"]


def make_text(n_sentences, seed=0):
    rng = np.random.default_rng(seed)
    subject, sentences = NAMES[0], []
    for _ in range(n_sentences):
        obj = rng.choice([n for n in NAMES if n != subject])
        sentences.append(f"{subject} {rng.choice(VERBS)} {obj}.")
        subject = obj
    return " ".join(sentences)


text = make_text(4000)
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda ids: "".join(chars[i] for i in ids)
data = torch.tensor(encode(text), dtype=torch.int64)
print(f"{len(text):,} characters, a vocabulary of {len(chars)}: {''.join(chars)!r}")
print(text[:120] + " ...")


def rules_kept(generated):
    """The share of complete sentences in `generated` that keep each rule (after the first partial
    one, which may have started mid-sentence)."""
    parts = [p.strip() for p in generated.split(".")][1:-1]
    if not parts:
        return {"form": 0.0, "two people": 0.0, "chain": 0.0, "sentences": 0}
    words = [p.split(" ") for p in parts]
    form = [len(w) == 3 and w[0] in NAMES and w[1] in VERBS and w[2] in NAMES for w in words]
    two = [f and w[0] != w[2] for f, w in zip(form, words)]
    chain = [f and g and a[2] == b[0] for f, g, a, b in zip(form[1:], form, words[1:], words)]
    share = lambda xs: sum(xs) / len(xs) if xs else 0.0
    return {"form": share(form), "two people": share(two), "chain": share(chain),
            "sentences": len(parts)}


# %% [markdown]
# ## Your functions
#
# Each piece is loaded from your lesson file and tried once on a tiny input against the workbook's
# reference for that lesson (in `solutions/`). If yours is missing, not finished, or answers
# differently, the notebook tells you and uses the reference instead.

# %%
PIECES = {  # function: the lesson that defines it
    "gpt_forward": "12-gpt-forward",
    "lm_loss": "13-lm-loss",
    "next_token_probs": "18-sampling",
    "sample": "18-sampling",
    "generate": "20-generate",
    "adamw_step": "22-train-step",
}


def find_function(folder, lesson, name):
    """(function, None) from folder/lesson/solution.py, or (None, why not)."""
    path = ROOT / folder / lesson / "solution.py"
    where = path.relative_to(ROOT)
    if not path.is_file():
        return None, f"{where} does not exist"
    module_name = f"capstone_{folder}_{lesson.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        return None, f"{where} does not import ({type(exc).__name__}: {exc})"
    if not callable(getattr(module, name, None)):
        return None, f"{where} has no function {name}"
    return getattr(module, name), None


def try_on_tiny_input(name, fn):
    """What `fn` answers on a tiny input that uses it the way this notebook does."""
    g = torch.Generator().manual_seed(1)
    f64 = lambda *xs: torch.tensor(xs, dtype=torch.float64)
    if name == "gpt_forward":
        params = init_params(vocab=7, width=6, n_layers=2, n_positions=5, std=0.3, gen=g)
        return fn(torch.tensor([[1, 4, 2, 6], [0, 3, 3, 5]]), params, 2)
    if name == "lm_loss":
        logits = torch.randn(2, 5, 7, generator=g, dtype=torch.float64)
        return fn(logits, torch.tensor([[1, 4, 2, 6, 0], [0, 3, 3, 5, 1]]))
    if name == "next_token_probs":
        return fn(np.array([0.3, -1.2, 2.2, 0.9, -0.4]), temperature=0.7, top_k=3)
    if name == "sample":
        # u on the running total's steps, and a token of probability 0 that must never come
        return [fn(np.array([0.25, 0.25, 0.0, 0.5]), u) for u in (0.0, 0.1, 0.25, 0.5, 0.9)]
    if name == "generate":  # a context of 3 tokens: the next token depends on all three
        logits_fn = lambda ids: F.one_hot(ids.cumsum(-1) % 5, 5).to(torch.float64)
        return fn(logits_fn, torch.tensor([[1, 2, 4]]), 3, 3)
    if name == "adamw_step":
        state = {"step": 3, "m": {"w": f64(0.2, -0.05)}, "v": {"w": f64(0.04, 0.01)}}
        new, state = fn({"w": f64(1.0, -2.0)}, {"w": f64(0.5, -0.1)}, state, 0.1, weight_decay=0.01)
        return [new["w"], state["m"]["w"], state["v"]["w"], state["step"]]
    raise KeyError(name)


def differs(got, want):
    """None if `got` matches `want` (tensors, arrays, numbers, or lists of them), else how not."""
    if isinstance(want, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return f"gave {got!r}"
        return next(filter(None, map(differs, got, want)), None)
    got, want = np.asarray(torch.as_tensor(got).detach()), np.asarray(torch.as_tensor(want))
    if got.shape != want.shape:
        return f"gave shape {got.shape}, expected {want.shape}"
    return None if np.allclose(got, want, rtol=1e-8, atol=1e-10) else "gave different numbers"


def probe(name, fn, reference):
    """None if `fn` answers a tiny input as the reference does, else what went wrong."""
    try:
        got = try_on_tiny_input(name, fn)
    except NotImplementedError:
        return "is not implemented yet"
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"
    problem = differs(got, try_on_tiny_input(name, reference))
    return problem and f"{problem} than the reference on a tiny input"


def init_params(vocab, width, n_layers, n_positions, std=0.02, gen=None, dtype=torch.float64):
    """GPT-2 parameters under transformers' state-dict names: normal(0, std) weights, zero biases,
    unit norm gains; the projections into the residual stream scaled down by sqrt(2 n_layers)."""
    randn = lambda *shape, s=std: s * torch.randn(*shape, generator=gen, dtype=dtype)
    p = {"transformer.wte.weight": randn(vocab, width), "transformer.wpe.weight": randn(n_positions, width)}
    for i in range(n_layers):
        pre = f"transformer.h.{i}."
        for ln in ("ln_1", "ln_2"):
            p[pre + ln + ".weight"] = torch.ones(width, dtype=dtype)
            p[pre + ln + ".bias"] = torch.zeros(width, dtype=dtype)
        out_std = std / math.sqrt(2 * n_layers)
        for name, (n_in, n_out, s) in {"attn.c_attn": (width, 3 * width, std),
                                       "attn.c_proj": (width, width, out_std),
                                       "mlp.c_fc": (width, 4 * width, std),
                                       "mlp.c_proj": (4 * width, width, out_std)}.items():
            p[pre + name + ".weight"] = randn(n_in, n_out, s=s)
            p[pre + name + ".bias"] = torch.zeros(n_out, dtype=dtype)
    p["transformer.ln_f.weight"] = torch.ones(width, dtype=dtype)
    p["transformer.ln_f.bias"] = torch.zeros(width, dtype=dtype)
    return p


def load_piece(name):
    """(function, which one it is): yours if it agrees with the reference, else the reference."""
    lesson = PIECES[name]
    reference, why = find_function("solutions", lesson, name)
    if reference is None:
        sys.exit(f"The capstone needs lesson {lesson}, but {why}.")
    if CODE == "solutions":
        return reference, f"the workbook's reference (lesson {lesson})"
    fn, why = find_function("exercises", lesson, name)
    if fn is not None:
        why = probe(name, fn, reference)
        if why is None:
            return fn, f"yours (lesson {lesson})"
        why = f"your {name} {why}"
    print(f"  lesson {lesson}: {why}; using the workbook's reference instead "
          f"(finish the lesson with `make check L={lesson[:2]}`).")
    return reference, f"the workbook's reference (lesson {lesson})"


print(f"Loading the pieces ({CODE}):")
fns = {}
for piece in PIECES:
    fns[piece], where = load_piece(piece)
    print(f"  {piece:17s} <- {where}")
gpt_forward, lm_loss, adamw_step = fns["gpt_forward"], fns["lm_loss"], fns["adamw_step"]
generate, next_token_probs, sample = fns["generate"], fns["next_token_probs"], fns["sample"]

# %% [markdown]
# ## The model
#
# A GPT-2-shaped model, small enough for a CPU: 2 blocks of width 64 with 4 heads, a context of 48
# characters. It computes in float32, which is plenty for training (the lessons use float64 so that
# grading can be exact).

# %%
CONTEXT, WIDTH, LAYERS, HEADS = 48, 64, 2, 4
BATCH, LR, WEIGHT_DECAY = 32, 3e-3, 0.01
params = init_params(len(chars), WIDTH, LAYERS, CONTEXT, gen=torch.Generator().manual_seed(0),
                     dtype=torch.float32)
print(f"{sum(p.numel() for p in params.values()):,} parameters in {len(params)} tensors")


def logits_fn(ids):
    with torch.no_grad():
        return gpt_forward(ids, params, HEADS)


def write(prompt, n, temperature=0.0, top_k=None, seed=0):
    """Continue `prompt` by n characters: greedy with your `generate` (lesson 20), or sampled with
    your `next_token_probs` and `sample` (lesson 18), one character at a time."""
    ids = torch.tensor([encode(prompt)])
    if temperature == 0:
        return decode(generate(logits_fn, ids, n, CONTEXT)[0].tolist())
    rng = np.random.default_rng(seed)
    for _ in range(n):
        last = logits_fn(ids[:, -CONTEXT:])[0, -1].double().numpy()
        token = int(sample(next_token_probs(last, temperature=temperature, top_k=top_k), rng.random()))
        ids = torch.cat([ids, torch.tensor([[token]])], dim=1)
    return decode(ids[0].tolist())


PROMPT = "ana sees bo. bo "
before = {"greedy": write(PROMPT, 100), "sampled": write(PROMPT, 100, temperature=0.8, top_k=8)}
for kind, sample_text in before.items():
    print(f"Before training, {kind}:\n  {sample_text!r}")
rules_before = rules_kept(write(PROMPT, 400, temperature=0.8, top_k=8, seed=5))

# %% [markdown]
# ## Training
#
# Each step takes a batch of random 48-character windows of the text, computes the loss with your
# `gpt_forward` and `lm_loss`, its gradient by autograd, and updates every parameter with your
# `adamw_step`. The learning rate warms up over the first steps and then decays along a cosine.

# %%
gen = torch.Generator().manual_seed(1)
state = {"step": 0, "m": {k: torch.zeros_like(p) for k, p in params.items()},
         "v": {k: torch.zeros_like(p) for k, p in params.items()}}
losses, t0, cpu0 = [], time.time(), time.process_time()
warmup = max(1, STEPS // 20)
for step in range(STEPS):
    starts = torch.randint(0, len(data) - CONTEXT, (BATCH,), generator=gen)
    batch = torch.stack([data[s:s + CONTEXT] for s in starts.tolist()])
    leaves = {k: p.detach().requires_grad_(True) for k, p in params.items()}
    loss = lm_loss(gpt_forward(batch, leaves, HEADS), batch)
    grads = dict(zip(leaves, torch.autograd.grad(loss, list(leaves.values()))))
    lr = LR * min(1.0, (step + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * step / STEPS)))
    params, state = adamw_step(params, grads, state, lr, weight_decay=WEIGHT_DECAY)
    params = {k: p.detach() for k, p in params.items()}
    losses.append(loss.detach().item())
    if step % max(1, STEPS // 10) == 0 or step == STEPS - 1:
        print(f"  step {step + 1:4d}/{STEPS}  loss {losses[-1]:.3f}  ({time.time() - t0:.0f} s)",
              flush=True)
    if time.time() - t0 > BUDGET and step < STEPS - 1:
        print(f"  stopping after {step + 1} steps: the time budget of {BUDGET:.0f} s is used up "
              "(WORKBOOK_CAPSTONE_SECONDS)")
        break
train_seconds = time.time() - t0
print(f"Trained {len(losses)} steps in {train_seconds:.0f} s ({time.process_time() - cpu0:.0f} s of CPU): "
      f"loss {losses[0]:.3f} -> "
      f"{np.mean(losses[-10:]):.3f} (mean of the last 10 steps)")

# %% [markdown]
# ## The loss curve
#
# The loss starts near $\ln V$ (every character equally likely), drops fast as the model learns
# which characters follow which, and then more slowly as it learns the words and the rules.

# %%
import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(losses, lw=0.8, alpha=0.5, label="loss per step")
smooth = np.convolve(losses, np.ones(10) / 10, mode="valid") if len(losses) >= 10 else losses
ax.plot(range(len(losses) - len(smooth), len(losses)), smooth, lw=2, label="mean of 10 steps")
ax.axhline(math.log(len(chars)), color="grey", ls="--", lw=1, label="ln V (a uniform guess)")
ax.set_xlabel("step")
ax.set_ylabel("next-character loss")
ax.legend()
fig.tight_layout()
fig.savefig(PLOT, dpi=120)
print(f"Loss curve saved to {PLOT}")
if "ipykernel" in sys.modules:
    plt.show()

# %% [markdown]
# ## After training
#
# The same prompt again, greedy and sampled. Then the rules: over a long sampled text, what share
# of the sentences keeps each rule? Before training almost nothing is a sentence at all.

# %%
after = {"greedy": write(PROMPT, 100), "sampled": write(PROMPT, 100, temperature=0.8, top_k=8)}
for kind, sample_text in after.items():
    print(f"After training, {kind}:\n  {sample_text!r}")

report = {"before": rules_before,
          "after": rules_kept(write(PROMPT, 400, temperature=0.8, top_k=8, seed=5))}
for when, kept in report.items():
    print(f"{when:>6}: {kept['sentences']} sentences; form {kept['form']:.0%}, two people "
          f"{kept['two people']:.0%}, chain {kept['chain']:.0%}")
print(f"Final loss {np.mean(losses[-10:]):.3f}; the whole notebook took {time.time() - started:.0f} s.")
