# %% [markdown]
# ### The worked example, step by step
#
# The sum model over 5 tokens: at each position it scores token `i` by `cos(2 pi (i - s) / 5)`,
# `s` the sum of the tokens read so far, so the greedy choice is the window's sum mod 5. Prompt
# `[1, 2, 4]`, `context = 3`, three greedy steps: crop, call, read the last position, append.

# %%
import math

import numpy as np
import torch

np.set_printoptions(precision=4, suppress=True)


def sum_model(ids):
    return torch.cos(2 * math.pi * (torch.arange(5, dtype=torch.float64)
                                    - ids.cumsum(-1)[..., None]) / 5)


ids, context = torch.tensor([[1, 2, 4]]), 3
for step in range(3):
    window = ids[:, -context:]
    last = sum_model(window)[:, -1]                    # only the last position chooses
    token = last.argmax(dim=-1, keepdim=True)
    ids = torch.cat([ids, token], dim=1)               # a new tensor: the prompt is unchanged
    print(f"step {step + 1}: window {window.tolist()[0]}, sum {window.sum().item()},"
          f" logits {last[0].numpy()}, token {token.item()} -> {ids.tolist()[0]}")

uncropped = torch.tensor([[1, 2, 4]])
for step in range(3):
    uncropped = torch.cat([uncropped, sum_model(uncropped)[:, -1].argmax(-1, keepdim=True)], dim=1)
print("without the crop:", uncropped.tolist()[0])

# %% [markdown]
# The first step sampled at temperature 1 with `u = 0.55`: the running totals of the softmax, and
# the first one above `u`.

# %%
probs = torch.softmax(sum_model(torch.tensor([[1, 2, 4]]))[0, -1] / 1.0, dim=-1)
cdf = probs.cumsum(-1)
print("probabilities ", probs.numpy())
print("running totals", cdf.numpy())
print("first total above 0.55: token", int((cdf <= 0.55).sum()))

# %% [markdown]
# ### A picture: the window slides along the text it writes
#
# Eight greedy steps of the sum model from the prompt `[1, 2, 4]`, with `context = 3` (left) and
# with a window wide enough to read everything (right). Each row is one step: the blue cells are
# what the model reads, the orange cell the token it writes. With the crop, the oldest token drops
# out of view at every step, and the two texts part ways from the second new token on.

# %%
import matplotlib.pyplot as plt


def steps_of(prompt, n, context):
    seq, rows = list(prompt), []
    for _ in range(n):
        window = seq[-context:]
        token = int(sum_model(torch.tensor([window]))[0, -1].argmax())
        rows.append((len(seq) - len(window), list(seq), token))
        seq.append(token)
    return rows


n_steps = 8
fig, axes = plt.subplots(1, 2, figsize=(12, 4.4), sharey=True)
for ax, (context, title) in zip(axes, ((3, "context = 3"), (100, "no crop (context >= length)"))):
    for row, (start, seq, token) in enumerate(steps_of([1, 2, 4], n_steps, context)):
        for pos, t in enumerate(seq):
            inside = pos >= start
            ax.add_patch(plt.Rectangle((pos, row), 0.92, 0.85, fc="tab:blue" if inside else "0.9",
                                       alpha=0.8 if inside else 1))
            ax.text(pos + 0.46, row + 0.43, str(t), ha="center", va="center", fontsize=8,
                    color="white" if inside else "0.4")
        ax.add_patch(plt.Rectangle((len(seq), row), 0.92, 0.85, fc="tab:orange"))
        ax.text(len(seq) + 0.46, row + 0.43, str(token), ha="center", va="center", fontsize=8)
    ax.set_xlim(-0.2, 3 + n_steps + 0.2)
    ax.set_ylim(n_steps, -0.2)
    ax.set_xticks([p + 0.46 for p in range(0, 3 + n_steps, 2)], range(0, 3 + n_steps, 2))
    ax.set_xlabel("position in the sequence")
    ax.set_title(title, fontsize=10)
axes[0].set_yticks([r + 0.43 for r in range(n_steps)], [f"step {r + 1}" for r in range(n_steps)])
axes[0].plot([], [], "s", color="tab:blue", label="read by the model")
axes[0].plot([], [], "s", color="tab:orange", label="written this step")
fig.legend(loc="lower center", ncol=2, fontsize=9)
fig.tight_layout(rect=(0, 0.06, 1, 1))
plt.show()
