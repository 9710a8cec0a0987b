# %% [markdown]
# ### The worked example, step by step
#
# Self-attention over three positions. First the mask: position `i` may see positions `0..i`.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
v = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
mask = np.tril(np.ones((3, 3), dtype=bool))
print("causal mask\n", mask)

scores = x @ x.T / np.sqrt(2)
masked = np.where(mask, scores, -np.inf)
print("masked scores\n", masked)
e = np.exp(masked - masked.max(axis=-1, keepdims=True))
weights = e / e.sum(axis=-1, keepdims=True)
print("weights (each row sums to 1)\n", weights)
print("outputs\n", weights @ v)

# %% [markdown]
# Two queries, the last two positions, against all three keys: the mask's diagonal shifts right by
# `Tk - Tq = 1`, and the outputs are the last two rows above.

# %%
t_q, t_k = 2, 3
shifted_mask = np.arange(t_k)[None, :] <= np.arange(t_q)[:, None] + (t_k - t_q)
print("causal_mask(2, 3)\n", shifted_mask)
s = x[1:] @ x.T / np.sqrt(2)
s = np.where(shifted_mask, s, -np.inf)
e = np.exp(s - s.max(axis=-1, keepdims=True))
print("outputs\n", (e / e.sum(axis=-1, keepdims=True)) @ v)

# %% [markdown]
# ### A picture: the causal mask and the weights it leaves
#
# Eight positions of random queries and keys. Left: the mask (dark = hidden, the future). Right:
# the attention weights; everything above the diagonal is exactly 0, and row `i` shares its weight
# among positions `0..i` (the first row puts all of it on position 0).

# %%
import matplotlib.pyplot as plt

rng = np.random.default_rng(3)
T = 8
Q, K = rng.normal(size=(T, 4)), rng.normal(size=(T, 4))
M = np.tril(np.ones((T, T), dtype=bool))
S = np.where(M, Q @ K.T / 2, -np.inf)
E = np.exp(S - S.max(axis=-1, keepdims=True))
W = E / E.sum(axis=-1, keepdims=True)

fig, axes = plt.subplots(1, 2, figsize=(9, 4))
axes[0].imshow(M, cmap="gray", vmin=0, vmax=1)
axes[0].set_title("causal mask (white: may attend)")
shown = np.ma.masked_where(~M, W)
cmap = plt.get_cmap("viridis").copy()
cmap.set_bad("0.8")
image = axes[1].imshow(shown, cmap=cmap, vmin=0, vmax=1)
axes[1].set_title("weights (grey: masked, weight 0)")
for ax in axes:
    ax.set_xlabel("key position j")
    ax.set_ylabel("query position i")
fig.colorbar(image, ax=axes[1], shrink=0.8, label="weight")
plt.show()
