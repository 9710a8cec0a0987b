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
# A prompt of four tokens, then three decode steps of one token each. Each panel is one call: its
# rows are the call's queries (the new tokens), its columns every key it attends to, the cached ones
# (grey band at the top) followed by the new ones. Prefill needs the full causal triangle; a decode
# step is one row that sees everything, and the cache grows by one column per step.

# %%
import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap

calls = [(4, 0), (1, 4), (1, 5), (1, 6)]               # (new tokens, cached tokens)
fig, axes = plt.subplots(1, len(calls), figsize=(13, 3.4),
                         gridspec_kw={"width_ratios": [past + n for n, past in calls]})
for step, (ax, (n, past)) in enumerate(zip(axes, calls)):
    m = causal_mask(n, past + n).astype(float)
    ax.imshow(m, cmap=ListedColormap(["0.92", "tab:blue"]), vmin=0, vmax=1, aspect="equal",
              extent=(-0.5, past + n - 0.5, n - 0.5, -0.5))
    ax.add_patch(plt.Rectangle((-0.5, -1.1), past, 0.5, color="0.55", clip_on=False))
    ax.add_patch(plt.Rectangle((past - 0.5, -1.1), n, 0.5, color="tab:orange", clip_on=False))
    if past:
        ax.text(past / 2 - 0.5, -0.85, f"cache: {past}", ha="center", va="center", fontsize=8,
                color="white")
    ax.set_xticks(range(past + n))
    ax.set_yticks(range(n), [f"pos {past + i}" for i in range(n)])
    ax.set_ylim(n - 0.5, -1.2)
    ax.set_xlabel("key position")
    ax.set_title("prefill" if step == 0 else f"decode step {step}", fontsize=10, pad=14)
axes[0].plot([], [], "s", color="tab:blue", label="may attend")
axes[0].plot([], [], "s", color="0.55", label="keys from the cache")
axes[0].plot([], [], "s", color="tab:orange", label="keys of this call")
fig.legend(loc="lower center", ncol=3, fontsize=9, bbox_to_anchor=(0.5, -0.04))
fig.tight_layout(rect=(0, 0.08, 1, 1))
plt.show()
