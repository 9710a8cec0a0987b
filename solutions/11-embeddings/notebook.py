# %% [markdown]
# ### The worked example, step by step
#
# The tables of the worked example (`V = 4`, `D = 2`, `P = 5`) and `ids = [[2, 0, 2]]` from
# `start = 0`: each token's row, each position's row, and their sum.

# %%
import torch

wte = torch.tensor([[1.0, -0.5], [0.2, 0.8], [-0.6, 0.3], [0.4, 0.4]], dtype=torch.float64)
wpe = torch.tensor([[0.01, 0.02], [0.03, -0.01], [-0.02, 0.05], [0.04, 0.0], [0.0, -0.03]],
                   dtype=torch.float64)
ids, start = torch.tensor([[2, 0, 2]]), 0
positions = torch.arange(start, start + ids.shape[1])
print("positions        ", positions.tolist())
for t in range(ids.shape[1]):
    token, pos = ids[0, t].item(), positions[t].item()
    total = wte[token] + wpe[pos]
    print(f"t={t}: wte[{token}] {wte[token].tolist()} + wpe[{pos}] {wpe[pos].tolist()}"
          f" = {[round(v, 6) for v in total.tolist()]}")
x = wte[ids] + wpe[positions]
print("shapes: wte[ids]", tuple(wte[ids].shape), " wpe[positions]", tuple(wpe[positions].shape),
      " sum", tuple(x.shape))

# %% [markdown]
# The continuation: two more tokens, `[[1, 3]]`, after the three above, so `start = 3`. They are
# rows 3 and 4 of the whole sequence embedded at once; one more token would need row 5, which the
# table does not have.

# %%
more, start = torch.tensor([[1, 3]]), 3
later = wte[more] + wpe[torch.arange(start, start + more.shape[1])]
print("embedded from start 3   ", later.numpy().round(6).tolist())
whole = torch.tensor([[2, 0, 2, 1, 3]])
print("rows 3, 4 of the whole  ", (wte[whole] + wpe[torch.arange(5)])[:, 3:].numpy().round(6).tolist())
print(f"one more token at start 5 needs row 5; the table has rows 0 to {wpe.shape[0] - 1}")

# %% [markdown]
# ### A picture: what a token is, plus where it is
#
# Left: the worked example as three small matrices, one row per time step and one column per
# dimension: the looked-up token rows, the position rows, and their sum. Rows 0 and 2 of `wte[ids]`
# are the same (token 2 twice); the position rows make them differ. Right: token 2's two copies in
# the plane of their `D = 2` numbers, zoomed in: both start from `wte[2]` (the square), and each
# position vector (arrow) moves its copy to its own point.

# %%
import matplotlib.pyplot as plt

parts = [("wte[ids]", wte[ids][0]), ("wpe[0:3]", wpe[:3]), ("x = sum", x[0])]
fig, axes = plt.subplots(1, 4, figsize=(12, 3.4), gridspec_kw={"width_ratios": [1, 1, 1, 2.2]})
for k, (ax, (title, m)) in enumerate(zip(axes, parts)):
    ax.imshow(m, cmap="RdBu", vmin=-1.1, vmax=1.1)
    for t in range(3):
        for j in range(2):
            value = m[t, j].item()
            ax.text(j, t, f"{value:.2f}", ha="center", va="center", fontsize=9,
                    color="white" if abs(value) > 0.7 else "black")
    ax.set_title(title, fontsize=10)
    ax.set_xticks([0, 1], ["dim 0", "dim 1"], fontsize=8)
    ax.set_yticks(range(3), [f"t={t}, id {ids[0, t].item()}" for t in range(3)] if k == 0 else [])
    if k < 2:
        ax.text(1.95, 1, "+" if k == 0 else "=", ha="center", va="center", fontsize=16,
                transform=ax.transData, clip_on=False)

ax = axes[3]
base = wte[2].tolist()
ax.plot(*base, "s", color="0.4", ms=9, label="wte[2] = [-0.6, 0.3]")
for t, colour in ((0, "tab:blue"), (2, "tab:green")):
    end = x[0, t].tolist()
    ax.annotate("", xy=end, xytext=base, arrowprops=dict(arrowstyle="->", color=colour, lw=2))
    ax.plot(*end, "o", color=colour, ms=8,
            label=f"t={t}: + wpe[{t}] = [{end[0]:.2f}, {end[1]:.2f}]")
ax.set_xlim(-0.66, -0.54)
ax.set_ylim(0.27, 0.38)
ax.set_xlabel("dimension 0")
ax.set_ylabel("dimension 1")
ax.legend(loc="upper right", fontsize=8)
ax.set_title("token 2 at two positions: two vectors", fontsize=10)
fig.tight_layout()
plt.show()
