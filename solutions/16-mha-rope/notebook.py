# %% [markdown]
# ### The worked example, step by step
#
# Two tokens of width 4, two heads of size 2, identity weights, positions 0 and 1. `softmax`,
# `split_heads`, `merge_heads` and `rope` are the ones given in your file.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    *batch, h, t, hd = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, t, h * hd)


def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    half = d // 2
    inv_freq = theta ** (-2.0 * np.arange(half) / d)
    angles = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


x = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 2.0]])
positions = np.arange(2)
heads = split_heads(x, 2)                                  # q = k = v = x: identity weights
print("head 0 before RoPE\n", heads[0])
turned = rope(heads, positions)
print("head 0 after RoPE (token 1 turned by 1 radian)\n", turned[0])
scores = turned @ np.swapaxes(turned, -1, -2) / np.sqrt(2)
masked = np.where(np.tril(np.ones((2, 2), dtype=bool)), scores, -np.inf)
print("token 1's scores, head 0:", masked[0, 1], " head 1:", masked[1, 1])
weights = softmax(masked)
print("token 1's weights, head 0:", weights[0, 1], " head 1:", weights[1, 1])
out = weights @ heads                                      # the values are not rotated
print("merged output (Wo = I)\n", merge_heads(out))

# %% [markdown]
# Only distances count: positions 5 and 6 give the same output, positions 0 and 3 another.

# %%
def mha_rope_identity(x, n_heads, positions):
    h = split_heads(x, n_heads)
    r = rope(h, positions)
    s = r @ np.swapaxes(r, -1, -2) / np.sqrt(h.shape[-1])
    s = np.where(np.tril(np.ones((len(positions),) * 2, dtype=bool)), s, -np.inf)
    return merge_heads(softmax(s) @ h)


for pos in ([5, 6], [0, 3]):
    print("positions", pos, "->", mha_rope_identity(x, 2, np.array(pos))[1])

# %% [markdown]
# ### A picture: the same token at every position, told apart by distance alone
#
# Ten copies of one random vector (one head of size 8, identity weights, `theta = 100` so that
# even the slowest pair turns visibly within ten positions). Without RoPE every score is the same
# and each query spreads its weight evenly over the past. With RoPE the score of query
# `i` against key `j` depends on `i - j` only: the weights form bands parallel to the diagonal, and
# they are identical whether the ten tokens sit at positions 0 to 9 or 300 to 309. Right: the score
# against the distance: the sum of the four pairs' products, each turning at its own speed.

# %%
import matplotlib.pyplot as plt

rng = np.random.default_rng(16)
T, hd = 10, 8
v = np.tile(rng.normal(size=hd), (T, 1))
mask = np.tril(np.ones((T, T), dtype=bool))


def weights_at(positions, with_rope=True):
    r = rope(v, positions, theta=100.0) if with_rope else v
    s = np.where(mask, r @ r.T / np.sqrt(hd), -np.inf)
    return softmax(s)


panels = [("no RoPE", weights_at(np.arange(T), False)),
          ("RoPE, positions 0 .. 9", weights_at(np.arange(T))),
          ("RoPE, positions 300 .. 309", weights_at(np.arange(300, 300 + T)))]
cmap = plt.get_cmap("viridis").copy()
cmap.set_bad("0.85")
fig, axes = plt.subplots(1, 4, figsize=(15, 4), layout="constrained",
                         gridspec_kw={"width_ratios": [1, 1, 1, 1.5]})
for ax, (title, W) in zip(axes, panels):
    image = ax.imshow(np.ma.masked_where(~mask, W), cmap=cmap, vmin=0, vmax=0.6)
    ax.set_title(title, fontsize=10)
    ax.set_xticks(range(0, T, 3))
    ax.set_yticks(range(0, T, 3))
    ax.set_xlabel("key j")
axes[0].set_ylabel("query i")
fig.colorbar(image, ax=axes[:3], shrink=0.8, label="weight")
distances = np.arange(30)
u = v[:1]
dots = [np.sum(rope(u, np.array([r]), theta=100.0) * u) / np.sqrt(hd) for r in distances]
axes[3].plot(distances, dots, "o-", ms=3)
axes[3].axhline(np.sum(u * u) / np.sqrt(hd), color="0.5", ls="--", lw=1, label="no RoPE")
axes[3].set_xlabel("distance i - j")
axes[3].set_ylabel("score")
axes[3].legend(loc="lower left", fontsize=8)
axes[3].set_title("score against distance", fontsize=10)
plt.show()
print("positions 0..9 and 300..309 give the same weights:",
      np.allclose(panels[1][1], panels[2][1]))
