# %% [markdown]
# ### The worked example, step by step
#
# Ten tokens, windows of `context + 1 = 4` tokens, two rows, a generator seeded with 0.

# %%
import torch

data = torch.tensor([5, 2, 7, 1, 8, 3, 9, 4, 6, 0])
context, batch_size = 3, 2
rng = torch.Generator().manual_seed(0)
starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
print("starts may be 0 ..", len(data) - context - 1, "; drawn:", starts.tolist())
for s in starts.tolist():
    window = data[s:s + context + 1]
    print(f"start {s}: window {window.tolist()} -> x {window[:-1].tolist()}, y {window[1:].tolist()}")
x = torch.stack([data[s:s + context] for s in starts.tolist()])
y = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()])
print("x =", x.tolist())
print("y =", y.tolist())
print("y[:, :-1] equals x[:, 1:]:", torch.equal(y[:, :-1], x[:, 1:]))

# %% [markdown]
# The next call draws from where the generator left off, so it gives other windows; a generator
# seeded again with 0 gives the first ones again.

# %%
print("next starts:", torch.randint(len(data) - context, (batch_size,), generator=rng).tolist())
print("seeded again:", torch.randint(len(data) - context, (batch_size,),
                                     generator=torch.Generator().manual_seed(0)).tolist())

# %% [markdown]
# ### A picture: windows of a text, and the position that a window of `context` tokens never trains
#
# Top: a 40-token text, the training and validation parts split at 90%, and three windows drawn
# from the training part: each row of `x` (dark) and its targets `y` (light), one token further on.
# Bottom: for every position of the model, how many targets it gets from 200 batches. Windows of
# `context + 1` tokens train every position equally; windows of `context` tokens with the shift
# done inside the loss leave the last position without a single target.

# %%
import matplotlib.pyplot as plt
import numpy as np

n, context = 40, 8
split = int(0.9 * n)
rng = torch.Generator().manual_seed(3)
starts = torch.randint(split - context, (3,), generator=rng).tolist()
fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 5), gridspec_kw={"height_ratios": [1.2, 1]})
top.axvspan(-0.5, split - 0.5, color="tab:green", alpha=0.08, label="training part")
top.axvspan(split - 0.5, n - 0.5, color="tab:red", alpha=0.08, label="validation part")
for row, s in enumerate(starts):
    level = 2 - row
    top.barh(level + 0.18, context, left=s - 0.5, height=0.32, color="tab:blue",
             label="x: inputs" if row == 0 else None)
    top.barh(level - 0.18, context, left=s + 0.5, height=0.32, color="tab:orange",
             label="y: targets" if row == 0 else None)
    top.text(s - 0.7, level, f"start {s}", ha="right", va="center", fontsize=8)
top.set_xlim(-6, n)
top.set_yticks([])
top.set_xlabel("position in the text")
top.legend(loc="lower left", fontsize=8, ncol=2)

positions = np.arange(context)
counts_right = np.full(context, 200)             # every position has a target in every window
counts_short = np.r_[np.full(context - 1, 200), 0]   # the last position never gets one
bottom.bar(positions - 0.2, counts_right, width=0.4, label="windows of context + 1 tokens")
bottom.bar(positions + 0.2, counts_short, width=0.4, label="windows of context tokens, shifted in the loss")
bottom.set_xlabel("position in the model's context")
bottom.set_ylabel("targets in 200 batches")
bottom.legend(fontsize=8, loc="lower left")
fig.tight_layout()
plt.show()
