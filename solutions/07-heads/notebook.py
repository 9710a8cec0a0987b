# %% [markdown]
# ### The worked example, step by step
#
# Two tokens of width 6, three heads of size 2. Each number is its own position, so you can follow
# where it goes.

# %%
import numpy as np

x = np.arange(12.0).reshape(2, 6)
print("x, shape (T, D) = (2, 6)\n", x)
chunks = x.reshape(2, 3, 2)
print("reshape to (T, H, Dh) = (2, 3, 2): each token cut into 3 chunks\n", chunks)
heads = np.swapaxes(chunks, 0, 1)
print("swap T and H: (H, T, Dh) = (3, 2, 2); head h holds columns 2h, 2h+1 of every token\n", heads)
print("merge back (swap, then reshape to (T, D))\n", np.swapaxes(heads, 0, 1).reshape(2, 6))
print("the reshape alone, x.reshape(3, 2, 2)[0]: two chunks of token 0, not a head\n",
      x.reshape(3, 2, 2)[0])

# %% [markdown]
# ### A picture: how heads split the columns
#
# A `(T, D) = (4, 12)` activation with 3 heads. Left: every column coloured by the head that owns
# it (head `h` gets columns `h*Dh` to `(h+1)*Dh - 1`, for every token). Right: after
# `split_heads`, each head is its own `(T, Dh)` matrix holding exactly those columns.

# %%
import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap

T, D, H = 4, 12, 3
Dh = D // H
owner = np.tile(np.arange(D) // Dh, (T, 1))
colors = ListedColormap(["#8ecae6", "#ffb703", "#90be6d"])
values = np.arange(T * D).reshape(T, D)
split = np.swapaxes(values.reshape(T, H, Dh), 0, 1)

fig = plt.figure(figsize=(11, 3.2))
grid = fig.add_gridspec(1, 2 + H, width_ratios=[D, 1] + [Dh] * H)
ax = fig.add_subplot(grid[0])
ax.imshow(owner, cmap=colors, vmin=0, vmax=H - 1)
for t in range(T):
    for d in range(D):
        ax.text(d, t, values[t, d], ha="center", va="center", fontsize=8)
ax.set_title("x: (T, D), coloured by head")
ax.set_xlabel("column d")
ax.set_ylabel("token t")
for h in range(H):
    ax = fig.add_subplot(grid[2 + h])
    ax.imshow(np.full((T, Dh), h), cmap=colors, vmin=0, vmax=H - 1)
    for t in range(T):
        for j in range(Dh):
            ax.text(j, t, split[h, t, j], ha="center", va="center", fontsize=8)
    ax.set_title(f"head {h}: (T, Dh)")
    ax.set_xticks(range(Dh))
    ax.set_yticks(range(T))
plt.show()
