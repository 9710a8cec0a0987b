# %% [markdown]
# ### The worked example, step by step
#
# Two tokens of width 4, two heads, every weight matrix the identity (so `q = k = v = x`).

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
x = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 2.0]])
H, (T, D) = 2, x.shape
Dh = D // H
heads = np.swapaxes(x.reshape(T, H, Dh), 0, 1)        # (H, T, Dh)
print("head 0\n", heads[0], "\nhead 1\n", heads[1])
mask = np.tril(np.ones((T, T), dtype=bool))
scores = np.where(mask, heads @ np.swapaxes(heads, -1, -2) / np.sqrt(Dh), -np.inf)
print("scores per head (masked)\n", scores)
e = np.exp(scores - scores.max(axis=-1, keepdims=True))
weights = e / e.sum(axis=-1, keepdims=True)
print("weights per head\n", weights)
out = weights @ heads
print("each head's output\n", out)
print("merged (times Wo = I)\n", np.swapaxes(out, 0, 1).reshape(T, D))

# %% [markdown]
# ### A picture: each head's causal attention pattern
#
# Six tokens, width 16, four heads, random projections. Every head sees the same causal mask (grey
# above the diagonal: weight exactly 0), but each head weighs the visible past its own way.

# %%
import matplotlib.pyplot as plt

rng = np.random.default_rng(8)
T, D, H = 6, 16, 4
Dh = D // H
X = rng.normal(size=(T, D))
Wq, Wk = rng.normal(size=(D, D)) / 2, rng.normal(size=(D, D)) / 2
split = lambda a: np.swapaxes(a.reshape(T, H, Dh), 0, 1)
Q, K = split(X @ Wq), split(X @ Wk)
M = np.tril(np.ones((T, T), dtype=bool))
S = np.where(M, Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh), -np.inf)
E = np.exp(S - S.max(axis=-1, keepdims=True))
W = E / E.sum(axis=-1, keepdims=True)

cmap = plt.get_cmap("viridis").copy()
cmap.set_bad("0.8")
fig, axes = plt.subplots(1, H, figsize=(12, 3.4))
for h, ax in enumerate(axes):
    image = ax.imshow(np.ma.masked_where(~M, W[h]), cmap=cmap, vmin=0, vmax=1)
    ax.set_title(f"head {h}")
    ax.set_xlabel("key position")
axes[0].set_ylabel("query position")
fig.colorbar(image, ax=axes, shrink=0.8, label="weight")
plt.show()
