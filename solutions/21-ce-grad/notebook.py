# %% [markdown]
# ### The worked example, step by step
#
# Two rows, three classes, targets `[0, 2]`, with the `softmax` given in your file: the
# probabilities, each row's loss, the mean, and the gradient (softmax minus one-hot) over `n`.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


z = np.array([[2.0, 1.0, 0.1], [0.5, -1.0, 1.5]])
t = np.array([0, 2])
p = softmax(z)
print("softmax rows\n", p)
rows = -np.log(p[np.arange(2), t])
print("row losses", rows, " mean", rows.mean().round(6))
one_hot = np.eye(3)[t]
print("one-hot targets\n", one_hot)
grad = (p - one_hot) / len(t)
print("gradient (p - one_hot) / 2\n", grad)
print("each gradient row sums to", grad.sum(axis=1))

# %% [markdown]
# Finite differences agree: nudge one logit by `h` either way and watch the mean loss.

# %%
def mean_loss(logits):
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -log_p[np.arange(len(t)), t].mean()


h = 1e-6
numeric = np.zeros_like(z)
for i in range(z.shape[0]):
    for j in range(z.shape[1]):
        bump = np.zeros_like(z)
        bump[i, j] = h
        numeric[i, j] = (mean_loss(z + bump) - mean_loss(z - bump)) / (2 * h)
print("finite differences\n", numeric)
print("largest difference from the formula:", np.abs(numeric - grad).max())

# %% [markdown]
# ### A picture: the gradient is the softmax minus the one-hot target
#
# Row 0 of the worked example (target class 0), then a confident wrong row. Each panel: the
# probabilities (blue), the one-hot target (outline), and their difference, the gradient times `n`
# (orange). The target's bar is negative (gradient descent raises its logit), every other bar is
# its own probability (descent lowers it), and the bars sum to 0. The more wrong the model, the
# larger the push: for the confident mistake the target's gradient is nearly -1.

# %%
import matplotlib.pyplot as plt

examples = [("row 0: [2, 1, 0.1], target 0", z[0], 0),
            ("confident and wrong: [4, -1, 0], target 1", np.array([4.0, -1.0, 0.0]), 1)]
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
classes = np.arange(3)
for ax, (title, row, target) in zip(axes, examples):
    probs = softmax(row)
    target_vec = np.eye(3)[target]
    diff = probs - target_vec
    ax.bar(classes - 0.2, probs, width=0.4, color="tab:blue", label="softmax p")
    ax.bar(classes - 0.2, target_vec, width=0.4, fill=False, edgecolor="k", label="one-hot target")
    ax.bar(classes + 0.2, diff, width=0.4, color="tab:orange", label="p - one-hot")
    for c, d in zip(classes, diff):
        ax.text(c + 0.2, d + (0.03 if d >= 0 else -0.09), f"{d:+.3f}", ha="center", fontsize=8)
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xticks(classes, [f"class {c}" + (" (target)" if c == target else "") for c in classes])
    ax.set_title(title, fontsize=10)
    ax.set_ylim(-1.15, 1.15)
axes[0].set_ylabel("value")
axes[0].legend(loc="lower left", fontsize=8)
fig.tight_layout()
plt.show()
