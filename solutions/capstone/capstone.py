# %% [markdown]
# # Capstone: train your GPT and let it write
#
# This notebook puts the roadmap together. It trains a small GPT from scratch on a CPU, in a couple
# of minutes, and samples from it before and after, with **your own functions** from the lessons:
#
# | piece | lesson | function |
# |---|---|---|
# | the tokenizer: characters, or byte-level BPE | 28, 29 | `char_vocab`, `char_encode`, `char_decode`; or `train_bpe`, `encode`, `decode` |
# | the model's forward pass (with its embeddings, lesson 11) | 12 | `gpt_forward` |
# | or, with `WORKBOOK_CAPSTONE_MODEL=llama`, a LLaMA-style model | 30 | `llama_forward` |
# | the next-token loss | 13 | `lm_loss` |
# | probabilities and sampling; generation with a context window | 18, 20 | `next_token_probs`, `sample`, `generate` |
# | the AdamW update | 22 | `adamw_step` |
# | batches and the train/validation split | 23 | `get_batch`, `split_data` |
# | GPT-2's initialisation and the loss at init | 24 | `gpt2_init`, `init_report` |
# | the learning-rate schedule | 25 | `lr_at` |
# | clipping by global norm | 26 | `clip_grad_norm` |
# | the training loop, evaluation and checkpoints | 27 | `train_step`, `evaluate`, `train`, `save_checkpoint`, `load_checkpoint` |
#
# Each piece is loaded from `exercises/NN-slug/solution.py` and tried once on a tiny input against
# the workbook's reference for its lesson (in `solutions/`). A piece you have not finished yet, or
# that answers differently, is replaced by the reference, and the notebook says so.
#
# Run it as a notebook (each `# %%` is a cell) or as a script: `make capstone`. Settings, all
# optional, from the environment:
#
# * `WORKBOOK_CAPSTONE_STEPS`: training steps (default 600).
# * `WORKBOOK_CAPSTONE_SECONDS`: a time limit for the whole run, sampling included (default: none).
#   Training stops early enough to leave time for the samples, and says so.
# * `WORKBOOK_CAPSTONE_LR`: the peak learning rate (default 0.003).
# * `WORKBOOK_CAPSTONE_CODE`: `exercises` (default) or `solutions` (the references only).
# * `WORKBOOK_CAPSTONE_PIECES`: `checked` (default) or `mine`: train with every function you have
#   written, even one that answers differently from the reference, to see what it does (the
#   training doctor at the end says what went wrong).
# * `WORKBOOK_CAPSTONE_TOKENIZER`: `chars` (default: one token per character, lesson 28) or `bpe`
#   (byte-level BPE, lesson 29, trained on the training part of the text).
# * `WORKBOOK_CAPSTONE_MERGES`: how many merges BPE learns (default 40).
# * `WORKBOOK_CAPSTONE_MODEL`: `gpt2` (default: lesson 12's GPT, initialised by lesson 24) or
#   `llama` (lesson 30's LLaMA-style model, 2 key/value heads for 4 query heads; its
#   initialisation, GPT-2's rules on LLaMA's names, and its loss-at-init report are the
#   capstone's own, `llama.py`, since no lesson writes them).
# * `WORKBOOK_CAPSTONE_PLOT`, `WORKBOOK_CAPSTONE_CHECKPOINT`: where to write the loss curves
#   (default `capstone-loss.png`) and the checkpoint (default `capstone-checkpoint.pt`).

# %%
import math
import os
import sys
import time
from pathlib import Path


def find_root():
    """The workbook's folder: the first one upwards that holds solutions/roadmap.toml."""
    start = Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd()
    for folder in (start, *start.parents):
        if (folder / "solutions" / "roadmap.toml").is_file():
            return folder
    sys.exit(f"Run this notebook from inside the workbook (no solutions/roadmap.toml found above {start}).")


def setting(name, default, kind=str, allowed=None):
    """WORKBOOK_CAPSTONE_<name> from the environment, or `default`; a bad value stops the run."""
    raw = os.environ.get(f"WORKBOOK_CAPSTONE_{name}", default)
    try:
        value = None if raw is None else kind(raw)
    except ValueError:
        sys.exit(f"WORKBOOK_CAPSTONE_{name} must be a {'whole ' * (kind is int)}number, not {raw!r}")
    if allowed and value not in allowed:
        sys.exit(f"WORKBOOK_CAPSTONE_{name} must be one of {', '.join(allowed)}, not {raw!r}")
    if kind is not str and value is not None and not value > 0:
        sys.exit(f"WORKBOOK_CAPSTONE_{name} must be above 0, not {raw!r}")
    return value


started = time.monotonic()
STEPS = setting("STEPS", "600", int)
SECONDS = setting("SECONDS", None, float)
MAX_LR = setting("LR", "0.003", float)
CODE = setting("CODE", "exercises", allowed=("exercises", "solutions"))
TRUST = setting("PIECES", "checked", allowed=("checked", "mine")) == "mine"
TOKENIZER = setting("TOKENIZER", "chars", allowed=("chars", "bpe"))
MERGES = setting("MERGES", "40", int)
MODEL = setting("MODEL", "gpt2", allowed=("gpt2", "llama"))
PLOT = setting("PLOT", "capstone-loss.png")
CHECKPOINT = setting("CHECKPOINT", "capstone-checkpoint.pt")
ROOT = find_root()

import numpy as np
import torch

sys.path.insert(0, str(ROOT / "solutions" / "capstone"))
import doctor
import language
import llama
import pieces as lessons
import tokens
import training
from progress import Progress, clock

torch.manual_seed(0)
torch.set_num_threads(1)   # the model's matrices are small: on a busy machine a second thread
                           # waits at every operation, and one thread is as fast on an idle one

# %% [markdown]
# ## The language it learns
#
# The training text is made by `language.py`, so we know its rules and can check whether the
# model learned them. It is one long line of sentences such as
#
# `ana sees bo. bo likes cy. cy helps ana. ...`
#
# Three rules hold everywhere:
#
# 1. **Form**: a sentence is *name verb name* and a full stop: names `ana bo cy dee eli fay`,
#    verbs `sees likes helps calls`.
# 2. **Two people**: the two names of a sentence differ.
# 3. **Chain**: each sentence starts with the name the sentence before it ended with.
#
# Rules 1 and 2 can be learned from a few characters of context. Rule 3 needs the model to look
# back past the verb into the sentence before: that is attention's job. Read as characters (the
# default tokenizer), the model has to learn the words too. Each sentence makes two free choices
# (5 objects, 4 verbs), so even a perfect model cannot go below the language's **floor** of about
# 0.21 nats per character (with BPE, the same nats spread over fewer tokens).

# %%
text = language.make_text(4000)
print(f"{len(text):,} characters: {text[:120]} ...")

# %% [markdown]
# ## Your functions
#
# Each is tried once on a tiny input against the reference; the notebook says which it uses.

# %%
print(f"Loading the pieces ({CODE}{', yours even where they differ' if TRUST else ''}):")
pieces = lessons.load(ROOT, CODE, trust=TRUST, tokenizer=TOKENIZER, model=MODEL)
for note in pieces.notes:
    print("  " + note)
for name, (whose, lesson) in pieces.whose.items():
    print(f"  {name:17s} <- {whose} (lesson {lesson})")
loop = pieces.loop        # lesson 27's functions, calling the pieces above
health = doctor.health_module(ROOT)

# %% [markdown]
# ## The tokenizer
#
# By default the model reads characters: your `char_vocab` (lesson 28) makes the vocabulary,
# `char_encode` and `char_decode` go between text and ids. With `WORKBOOK_CAPSTONE_TOKENIZER=bpe`
# your `train_bpe` (lesson 29) learns merges from the training part of the text (the first 90%),
# and `encode` and `decode` use them: the words of the language become single tokens, so a
# context of 48 tokens holds several times as much text. The floor is then counted per token: the
# same nats of the whole text, spread over its tokens.

# %%
vocab = tokens.Tokenizer(TOKENIZER, pieces, text[:int(0.9 * len(text))], MERGES)
ids = vocab.encode(text)
if vocab.decode(ids) != text:
    sys.exit(f"The tokenizer does not give the text back (decode(encode(text)) differs): finish "
             f"lesson {'28' if TOKENIZER == 'chars' else '29'} with `make check`.")
V, FLOOR = len(vocab), language.floor_nats() * len(text) / len(ids)
UNIT = "character" if TOKENIZER == "chars" else "token"
print(vocab.describe())
print(f"{len(ids):,} tokens ({len(text) / len(ids):.2f} characters per token)")
print(f"ln V = {math.log(V):.3f} nats (a uniform guess); the language's floor: {FLOOR:.3f} nats per {UNIT}")

# %% [markdown]
# ## The model, the split and the settings
#
# A GPT-2-shaped model, small enough for a CPU: 2 blocks of width 64 with 4 heads, a context of 48
# tokens, initialised with your `gpt2_init` (GPT-2's rules) and trained in float32, which is
# plenty for training (the lessons use float64 so that grading can be exact). With
# `WORKBOOK_CAPSTONE_MODEL=llama` it is your lesson 30 model of the same width, depth and heads,
# with 2 key/value heads, a SwiGLU MLP 176 wide and no position table, initialised by the
# capstone with GPT-2's rules. The text is split with your `split_data`: the first 90% trains,
# the last 10% validates.

# %%
config = dict(n_heads=4, batch_size=32, context=48, max_lr=MAX_LR, min_lr=MAX_LR / 10,
              warmup_steps=min(30, STEPS // 10), max_steps=STEPS, max_norm=1.0, weight_decay=0.01,
              dropout=0.0, eval_every=25, eval_batches=4, eval_seed=0)
WIDTH, LAYERS = 64, 2
data = torch.tensor(ids, dtype=torch.int64)
train_data, val_data = pieces.split_data(data, 0.9)
if MODEL == "gpt2":
    init64 = pieces.gpt2_init(V, WIDTH, LAYERS, config["context"], torch.Generator().manual_seed(0))
else:
    init64 = llama.init(V, WIDTH, LAYERS, config["n_heads"], llama.KV_HEADS,
                        torch.Generator().manual_seed(0))
params = {k: p.float() for k, p in init64.items()}
print(f"The {'GPT-2' if MODEL == 'gpt2' else 'LLaMA'}-style model: {sum(p.numel() for p in params.values()):,} parameters in {len(params)} tensors; "
      f"{len(train_data):,} training and {len(val_data):,} validation tokens")


def logits_fn(ids, params):
    with torch.no_grad():
        return pieces.forward(ids, params, config["n_heads"])


def write(params, prompt, n, temperature=0.0, top_k=None, seed=0):
    """Continue `prompt` by n tokens: greedy with your `generate` (lesson 20), or sampled with
    your `next_token_probs` and `sample` (lesson 18), one token at a time."""
    ids = torch.tensor([vocab.encode(prompt)])
    if temperature == 0:
        out = pieces.generate(lambda x: logits_fn(x, params), ids, n, config["context"])
        return vocab.decode(out[0].tolist())
    rng = np.random.default_rng(seed)
    for _ in range(n):
        last = logits_fn(ids[:, -config["context"]:], params)[0, -1].double().numpy()
        token = int(pieces.sample(pieces.next_token_probs(last, temperature=temperature, top_k=top_k),
                                  rng.random()))
        ids = torch.cat([ids, torch.tensor([[token]])], dim=1)
    return vocab.decode(ids[0].tolist())


PROMPT = "ana sees bo. bo " if TOKENIZER == "chars" else "ana sees bo. bo"   # BPE: " likes" is one token


def samples(params):
    """A greedy and a sampled continuation of the prompt, and the rules kept by a long sample."""
    return {"greedy": write(params, PROMPT, 100),
            "sampled": write(params, PROMPT, 100, temperature=0.8, top_k=8),
            "rules": language.rules_kept(write(params, PROMPT, 800, temperature=0.8, top_k=8, seed=5))}


# %% [markdown]
# ## Before training
#
# What the untrained model writes, and what the training doctor's probes find: the loss at
# initialisation against $\ln V$ (your `init_report`), whether the model can see the future (a
# causal-mask probe on your model, a shift probe on your `get_batch`), whether your
# `clip_grad_norm` caps a huge gradient, and whether your training step can drive the loss down on
# one batch seen again and again.

# %%
sampling_started = time.monotonic()
before = samples(params)
sampling_seconds = time.monotonic() - sampling_started
for kind in ("greedy", "sampled"):
    print(f"Before training, {kind}:\n  {before[kind]!r}")
checkup = doctor.examine(health, pieces, loop, params, train_data, config, V)
print(f"Loss at initialisation: {checkup.init['loss']:.3f} (ln V = {checkup.init['uniform']:.3f}, "
      f"a gap of {checkup.init['gap']:+.3f})")
print(f"On one batch, {doctor.OVERFIT_STEPS} steps take the loss from {checkup.overfit[0]:.3f} to "
      f"{checkup.overfit[-1]:.3f}")
for found in checkup.leaks + [checkup.clipping] * bool(checkup.clipping):
    print("Warning: " + found)

# %% [markdown]
# ## Training
#
# Your `train` (lesson 27) runs the steps: each draws a batch with your `get_batch`, takes its rate
# from your `lr_at`, computes the loss with your model and `lm_loss`, clips with your
# `clip_grad_norm` and updates with your `adamw_step`; every 25 steps it evaluates both splits with
# your `evaluate` and saves a checkpoint with your `save_checkpoint`. It is called 25 steps at a
# time so that the bar below moves (a run resumed at a step gives the same history as one that
# never stopped, which is what makes that safe).

# %%
run = loop.new_run(params, 1)
progress = Progress(STEPS)
history, stopped_early = training.train_in_stages(
    loop, run, train_data, val_data, config, STEPS, CHECKPOINT,
    deadline=None if SECONDS is None else started + SECONDS, reserve=sampling_seconds,
    progress=progress)
progress.close()
steps_done = run["step"]
last = history["evals"][-1] if history["evals"] else None
if stopped_early:
    loss = last["val_loss"] if last else checkup.init["loss"]
    expect = ("mostly letters and spaces, hardly a word" if loss > 1.5 else
              "real names and verbs, but broken sentences and few chains" if loss > 0.5 else
              "mostly well-formed sentences, with the chain rule still weak")
    print(f"Stopped after {steps_done} of {STEPS} steps: the time limit of {SECONDS:.0f} s "
          f"(WORKBOOK_CAPSTONE_SECONDS) leaves just enough time to write the samples. The model "
          f"is UNDER-TRAINED: at a validation loss of {loss:.3f} (the floor is {FLOOR:.2f}) expect "
          f"{expect}, and low scores below. Give it more time, or fewer steps "
          "(WORKBOOK_CAPSTONE_STEPS), for a model that writes.")
if last:
    print(f"After {steps_done} steps: training loss {last['train_loss']:.3f}, validation loss "
          f"{last['val_loss']:.3f} (perplexity {last['val_perplexity']:.2f})")

# %% [markdown]
# ## The loss curves
#
# The loss starts near $\ln V$ (every character equally likely), drops fast as the model learns
# which characters follow which, then more slowly as it learns the words and the rules, towards the
# language's floor. The validation loss (evaluated every 25 steps on text the model never trains
# on) stays close to the training loss: the model learns the language, not its training text.

# %%
import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(7, 3.5))
step_losses = [r["loss"] for r in history["steps"]]
ax.plot(range(1, len(step_losses) + 1), step_losses, lw=0.8, alpha=0.5, label="loss per step")
if history["evals"]:
    at = [r["step"] for r in history["evals"]]
    ax.plot(at, [r["train_loss"] for r in history["evals"]], "o-", ms=3, label="training split")
    ax.plot(at, [r["val_loss"] for r in history["evals"]], "s-", ms=3, label="validation split")
ax.axhline(math.log(V), color="grey", ls="--", lw=1, label="ln V (a uniform guess)")
ax.axhline(FLOOR, color="grey", ls=":", lw=1, label="the language's floor")
ax.set_xlabel("step")
ax.set_ylabel(f"next-{UNIT} loss (nats)")
ax.legend()
fig.tight_layout()
fig.savefig(PLOT, dpi=120)
print(f"Loss curves saved to {PLOT}")
if "ipykernel" in sys.modules:
    plt.show()

# %% [markdown]
# ## After training
#
# The model is loaded back from its last checkpoint with your `load_checkpoint`, and writes from
# the same prompt, greedy and sampled. Then the rules: over a long sampled text, what share of the
# sentences keeps each rule? Before training almost nothing is a sentence at all.

# %%
if steps_done:
    trained = {k: p.detach() for k, p in pieces.load_checkpoint(CHECKPOINT)["params"].items()}
    same = all(torch.equal(trained[k], run["params"][k].detach()) for k in trained)
    print(f"Checkpoint {CHECKPOINT} loaded back" + ("" if same else
          ": WARNING, its parameters differ from the trained ones (lesson 27's checkpoints)"))
else:
    trained = params
after = samples(trained)
for kind in ("greedy", "sampled"):
    print(f"After training, {kind}:\n  {after[kind]!r}")
for when, kept in (("before", before["rules"]), ("after", after["rules"])):
    print(f"{when:>6}: {kept['sentences']} sentences; form {kept['form']:.0%}, two people "
          f"{kept['two people']:.0%}, chain {kept['chain']:.0%}")

# %% [markdown]
# ## What the training doctor says
#
# The run's history and the probes, read for the usual ways training goes wrong: a loss at step 0
# far from $\ln V$, a model that cannot learn even one batch, a loss below the language's floor
# (the model sees the future), a loss that rises or turns NaN, a validation loss far above the
# training loss. Each finding comes with its evidence and the lessons to revisit.

# %%
found = doctor.findings(health, history, checkup, V, FLOOR, config["max_norm"])
print("Training doctor: " + ("no problems found." if not found else f"{len(found)} finding(s):"))
for finding in found:
    print(f"  * {finding}")
kept = after["rules"]
print(f"The whole run took {clock(time.monotonic() - started)}.")
print(f"capstone: {'' if MODEL == 'gpt2' else 'model llama, '}steps {steps_done}, train loss {last['train_loss'] if last else float('nan'):.3f}, "
      f"val loss {last['val_loss'] if last else float('nan'):.3f}, "
      f"perplexity {last['val_perplexity'] if last else float('nan'):.2f}, "
      f"form {kept['form']:.0%}, two-people {kept['two people']:.0%}, chain {kept['chain']:.0%}")
