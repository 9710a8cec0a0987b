# %% [markdown]
# ### The worked example, step by step
#
# Two tokens of width 4, `H = 4` query heads of size 1, `n_kv_heads = 2`: groups of `g = 2`.
# `Wq = Wo = I`; `Wk` picks columns 0 and 2, `Wv` columns 1 and 3.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
x = np.array([[1.0, 2.0, -1.0, 0.5], [0.5, -1.0, 2.0, 1.0]])
Wk = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
Wv = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
H, n_kv, hd = 4, 2, 1
g = H // n_kv
q = np.swapaxes(x.reshape(2, H, hd), 0, 1)              # (H, T, hd)
k = np.swapaxes((x @ Wk).reshape(2, n_kv, hd), 0, 1)    # (n_kv, T, hd)
v = np.swapaxes((x @ Wv).reshape(2, n_kv, hd), 0, 1)
print("keys (a row per kv head, a column per token)\n", k[..., 0])
print("values\n", v[..., 0])
kv_of = np.arange(H) // g
print("query head -> kv head:", dict(enumerate(kv_of.tolist())))
k_rep, v_rep = np.repeat(k, g, axis=0), np.repeat(v, g, axis=0)   # each kv head once per query head
mask = np.tril(np.ones((2, 2), dtype=bool))
scores = np.where(mask, q @ np.swapaxes(k_rep, -1, -2) / np.sqrt(hd), -np.inf)
e = np.exp(scores - scores.max(axis=-1, keepdims=True))
weights = e / e.sum(axis=-1, keepdims=True)
out = weights @ v_rep
for h in range(H):
    print(f"head {h} (kv {kv_of[h]}): token 1's scores {scores[h, 1]}, weights {weights[h, 1]},"
          f" output {out[h, 1, 0]:.6g}")
print("merged (Wo = I)\n", np.swapaxes(out, 0, 1).reshape(2, 4))

# %% [markdown]
# The tiled layout (`np.tile`, kv heads `0, 1, 0, 1`) gives heads 1 and 2 the wrong key/value head:

# %%
k_tile, v_tile = np.tile(k, (g, 1, 1)), np.tile(v, (g, 1, 1))
s = np.where(mask, q @ np.swapaxes(k_tile, -1, -2) / np.sqrt(hd), -np.inf)
e = np.exp(s - s.max(axis=-1, keepdims=True))
tiled = np.swapaxes((e / e.sum(axis=-1, keepdims=True)) @ v_tile, 0, 1).reshape(2, 4)
print("tiled, second row:", tiled[1])

# %% [markdown]
# ### A picture: which query heads read which key/value head
#
# Eight query heads (top row of each diagram) and the key/value heads they read (bottom row, in the
# same colour). In reading order: multi-head attention (one key/value head per query head),
# grouped-query attention with 4 and with 2 key/value heads (consecutive query heads share one),
# and multi-query attention (a single shared head). Right: how many key/value heads the cache
# stores per token and layer, the memory that GQA saves.

# %%
import matplotlib.pyplot as plt

H = 8
settings = [8, 4, 2, 1]
panels = plt.figure(figsize=(12, 5)).subplot_mosaic([["8", "4", "bar"], ["2", "1", "bar"]],
                                                      gridspec_kw={"width_ratios": [1, 1, 0.7]})
cmap = plt.get_cmap("tab10")
for n_kv in settings:
    ax = panels[str(n_kv)]
    group = np.arange(H) // (H // n_kv)
    for h in range(H):
        ax.add_patch(plt.Rectangle((h, 1.2), 0.9, 0.8, color=cmap(group[h])))
        ax.text(h + 0.45, 1.6, f"q{h}", ha="center", va="center", fontsize=9, color="white")
        ax.plot([h + 0.45, group[h] * (H / n_kv) + (H / n_kv) / 2 - 0.05], [1.2, 0.8],
                color=cmap(group[h]), lw=1)
    for j in range(n_kv):
        width = H / n_kv
        ax.add_patch(plt.Rectangle((j * width, 0), width - 0.1, 0.8, color=cmap(j), alpha=0.6))
        ax.text(j * width + width / 2 - 0.05, 0.4, f"kv{j}", ha="center", va="center", fontsize=9)
    name = {8: "MHA", 1: "MQA"}.get(n_kv, "GQA")
    ax.set_title(f"{name}: n_kv_heads = {n_kv}, g = {H // n_kv}", fontsize=10)
    ax.set_xlim(-0.2, H)
    ax.set_ylim(-0.1, 2.1)
    ax.axis("off")
bar = panels["bar"]
bar.bar([str(n) for n in settings], settings, color="0.6")
bar.set_xlabel("n_kv_heads")
bar.set_ylabel("kv heads cached per token")
bar.set_title("cache size", fontsize=10)
plt.tight_layout()
plt.show()
