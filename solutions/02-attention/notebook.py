# %% [markdown]
# ### The worked example, step by step
#
# One query, three keys and three values, each intermediate printed.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
q = np.array([[1.0, 0.5]])
k = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
v = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])

scores = q @ k.T
print("scores q k^T       ", scores)
scaled = scores / np.sqrt(q.shape[-1])
print("scaled by 1/sqrt(2)", scaled)
e = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
print("exp(shifted)       ", e, " sum", e.sum().round(5))
weights = e / e.sum(axis=-1, keepdims=True)
print("weights            ", weights)
print("output weights @ v ", weights @ v)

# %% [markdown]
# The same with the third key hidden: its score becomes `-inf` *before* the softmax, so its weight
# is exactly 0 and the other two still sum to 1.

# %%
mask = np.array([[True, True, False]])
masked = np.where(mask, scaled, -np.inf)
print("masked scores      ", masked)
e = np.exp(masked - masked.max(axis=-1, keepdims=True))
masked_weights = e / e.sum(axis=-1, keepdims=True)
print("weights            ", masked_weights, " sum", masked_weights.sum())
print("output             ", masked_weights @ v)

# %% [markdown]
# ### A picture: the weight matrix, and what a mask does to it
#
# Five queries against five keys (random vectors, `d = 4`). Each row is one query's weights and sums
# to 1. On the right, a padding mask hides the last two keys: their columns are greyed out and
# get weight 0, and each row's weight is shared among the keys that remain.

# %%
import matplotlib.pyplot as plt

rng = np.random.default_rng(0)
Q, K = rng.normal(size=(5, 4)), rng.normal(size=(5, 4))


def weights_of(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


S = Q @ K.T / np.sqrt(4)
padding = np.array([True, True, True, False, False])
panels = [("no mask", weights_of(S), None),
          ("keys 3 and 4 hidden", weights_of(np.where(padding, S, -np.inf)), ~padding)]
fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
for ax, (title, W, hidden) in zip(axes, panels):
    image = ax.imshow(W, cmap="viridis", vmin=0, vmax=1)
    for i in range(5):
        for j in range(5):
            if hidden is not None and hidden[j]:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, color="0.75"))
                ax.text(j, i, "hidden", ha="center", va="center", fontsize=7, color="0.3")
            else:
                ax.text(j, i, f"{W[i, j]:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if W[i, j] < 0.5 else "black")
    ax.set_title(title)
    ax.set_xlabel("key j")
    ax.set_ylabel("query i")
fig.colorbar(image, ax=axes, shrink=0.8, label="weight")
plt.show()
