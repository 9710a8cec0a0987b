# %% [markdown]
# ### The worked example, step by step
#
# Three tokens of width 4, two heads, identity weights. Prefill the first two from an empty cache,
# then decode the third against the cache. `softmax`, `causal_mask`, `split_heads` and
# `merge_heads` are the ones given in your file.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def causal_mask(t_q, t_k=None):
    t_k = t_q if t_k is None else t_k
    return np.arange(t_k)[None, :] <= np.arange(t_q)[:, None] + (t_k - t_q)


def split_heads(x, n_heads):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, n_heads, d // n_heads), -3, -2)


def merge_heads(x):
    *batch, h, t, hd = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, t, h * hd)


x = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 2.0], [1.0, 1.0, -1.0, 0.0]])
prefill = split_heads(x[:2], 2)                        # q = k = v: identity weights
mask = causal_mask(2, 2)
weights = softmax(np.where(mask, prefill @ np.swapaxes(prefill, -1, -2) / np.sqrt(2), -np.inf))
print("prefill output\n", merge_heads(weights @ prefill))
cache = {"k": prefill, "v": prefill}
print("cache k, head 0:", cache["k"][0].tolist(), " head 1:", cache["k"][1].tolist())

new = split_heads(x[2:], 2)
keys = np.concatenate([cache["k"], new], axis=-2)      # a new array: the old cache is unchanged
values = np.concatenate([cache["v"], new], axis=-2)
mask = causal_mask(1, 3)
print("decode mask (1 query, 3 keys):", mask)
scores = np.where(mask, new @ np.swapaxes(keys, -1, -2) / np.sqrt(2), -np.inf)
print("scores, head 0:", scores[0, 0], " head 1:", scores[1, 0])
weights = softmax(scores)
print("weights, head 0:", weights[0, 0], " head 1:", weights[1, 0])
print("decode output:", merge_heads(weights @ values))
print("cache now holds", keys.shape[-2], "tokens; the old one still", cache["k"].shape[-2])

# %% [markdown]
# ### A picture: the cache and the mask at each step
#
# A prompt of four tokens (prefill), then three decode steps of one token each. Left: every row is
# one query, every column one key, and the horizontal lines separate the calls. A call's queries
# attend to the keys it computed itself (orange: the triangle of prefill, one cell per decode
# step) and to the keys it read from the cache (grey); the future (white) is masked. Each decode
# step adds one row that sees everything before it. Right: what the cache holds after each call;
# it grows by the new tokens' keys and values (orange) and never recomputes the old ones.

# %%
import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap

calls = [("prefill", 4), ("decode 1", 1), ("decode 2", 1), ("decode 3", 1)]
total = sum(n for _, n in calls)
grid = np.zeros((total, total))                        # 0 masked, 1 from the cache, 2 this call
after, past = [], 0
for name, n in calls:
    m = causal_mask(n, past + n)
    grid[past:past + n, :past + n] = np.where(m, 1, 0)
    grid[past:past + n, past:past + n] = np.where(m[:, past:], 2, 0)
    past += n
    after.append((name, past, n))
cmap = ListedColormap(["white", "0.6", "tab:orange"])
fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.4), gridspec_kw={"width_ratios": [1, 1.3]})
left.imshow(grid, cmap=cmap, vmin=0, vmax=2)
left.set_xticks(range(total))
left.set_yticks(range(total))
left.set_xlabel("key position")
left.set_ylabel("query position")
start = 0
for name, n in calls:
    left.axhline(start - 0.5, color="k", lw=1)
    left.text(total - 0.4, start + (n - 1) / 2, name, va="center", fontsize=9)
    start += n
left.set_title("what each call's queries attend to", fontsize=10)
left.plot([], [], "s", color="0.6", label="key from the cache")
left.plot([], [], "s", color="tab:orange", label="key computed in this call")
left.legend(loc="upper right", fontsize=8, bbox_to_anchor=(1.0, 1.0))

for row, (name, size, n) in enumerate(after):
    for j in range(size):
        new = j >= size - n
        right.add_patch(plt.Rectangle((j, row), 0.9, 0.8, color="tab:orange" if new else "0.6"))
    right.text(size + 0.2, row + 0.4, f"{size} tokens", va="center", fontsize=9)
right.set_xlim(0, total + 1.5)
right.set_ylim(len(after), -0.2)
right.set_yticks([r + 0.4 for r in range(len(after))], [f"after {name}" for name, _, _ in after])
right.set_xticks([j + 0.45 for j in range(total)], range(total))
right.set_xlabel("token position held in the cache (keys and values)")
right.set_title("the cache after each call", fontsize=10)
fig.tight_layout()
plt.show()
