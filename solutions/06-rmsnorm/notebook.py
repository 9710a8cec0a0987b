# %% [markdown]
# ### The worked example, step by step

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
x = np.array([1.0, 2.0, 4.0])
gamma, eps = np.array([2.0, 0.5, -1.0]), 1e-5
mean_square = (x**2).mean()
rms = np.sqrt(mean_square + eps)
print("squares        ", x**2, " mean square", mean_square)
print("sqrt(ms + eps) ", round(rms, 6))
print("normalised     ", x / rms)
print("times gamma    ", gamma * x / rms)

# %% [markdown]
# A thousandfold smaller input: the mean square drops below `eps`, which then sets the divisor.

# %%
tiny = x / 1000
print("mean square    ", (tiny**2).mean(), " < eps =", eps)
print("normalised     ", tiny / np.sqrt((tiny**2).mean() + eps))

# %% [markdown]
# ### A picture: RMSNorm fixes the scale, not the mean
#
# The same six rows as in lesson 05. After RMSNorm every row's root-mean-square is 1, but a row
# that sat far from 0 keeps an offset: RMSNorm does not centre. Dots: each row's mean; bars: one
# standard deviation either side; crosses: the row's RMS.

# %%
import matplotlib.pyplot as plt

rng = np.random.default_rng(5)
offsets, scales = np.array([-6, -2, 0, 1, 4, 8.0]), np.array([0.3, 3, 1, 0.5, 2, 5.0])
X = offsets[:, None] + scales[:, None] * rng.normal(size=(6, 64))
Y = X / np.sqrt((X**2).mean(axis=-1, keepdims=True) + eps)
rows = np.arange(6)
fig, axes = plt.subplots(2, 1, figsize=(8, 5), sharex=True)
for ax, data, title in ((axes[0], X, "before: rows x"), (axes[1], Y, "after: rmsnorm(x)")):
    for r in rows:
        ax.scatter(np.full(64, r), data[r], s=6, color="0.75")
    ax.errorbar(rows, data.mean(axis=-1), yerr=data.std(axis=-1), fmt="o", color="tab:blue",
                capsize=5, label="mean ± std")
    ax.scatter(rows, np.sqrt((data**2).mean(axis=-1)), marker="x", color="tab:red", label="RMS")
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_title(title)
    ax.legend(loc="upper left")
axes[1].set_xlabel("row (token)")
fig.tight_layout()
plt.show()
print("RMS after:  ", np.sqrt((Y**2).mean(axis=-1)).round(6))
print("means after:", Y.mean(axis=-1).round(3))
