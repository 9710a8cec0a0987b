# %% [markdown]
# ### The worked example, step by step

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
x = np.array([1.0, 2.0, 4.0])
gamma, beta, eps = np.array([2.0, 0.5, 1.0]), np.array([0.1, 0.0, -0.3]), 1e-5
mean = x.mean()
centred = x - mean
var = (centred**2).mean()
x_hat = centred / np.sqrt(var + eps)
print("mean          ", round(mean, 6))
print("centred       ", centred)
print("squares       ", centred**2, " variance", round(var, 6))
print("sqrt(var+eps) ", round(np.sqrt(var + eps), 6))
print("normalised    ", x_hat)
print("times gamma   ", gamma * x_hat)
print("plus beta     ", gamma * x_hat + beta)

# %% [markdown]
# A thousandfold smaller input: the variance drops below `eps`, which then sets the divisor.

# %%
tiny = x / 1000
c = tiny - tiny.mean()
print("variance      ", (c**2).mean(), " < eps =", eps)
print("normalised    ", c / np.sqrt((c**2).mean() + eps))

# %% [markdown]
# ### A picture: each row's mean and spread, before and after
#
# Six token vectors of width 64 with very different offsets and scales (top). After layer norm
# (with `gamma = 1`, `beta = 0`) every row has mean 0 and standard deviation 1 (bottom): the dots
# mark each row's mean, the bars one standard deviation either side.

# %%
import matplotlib.pyplot as plt

rng = np.random.default_rng(5)
offsets, scales = np.array([-6, -2, 0, 1, 4, 8.0]), np.array([0.3, 3, 1, 0.5, 2, 5.0])
X = offsets[:, None] + scales[:, None] * rng.normal(size=(6, 64))
C = X - X.mean(axis=-1, keepdims=True)
Y = C / np.sqrt((C**2).mean(axis=-1, keepdims=True) + eps)
rows = np.arange(6)
fig, axes = plt.subplots(2, 1, figsize=(8, 5), sharex=True)
for ax, data, title in ((axes[0], X, "before: rows x"), (axes[1], Y, "after: layer_norm(x)")):
    for r in rows:
        ax.scatter(np.full(64, r), data[r], s=6, color="0.75")
    ax.errorbar(rows, data.mean(axis=-1), yerr=data.std(axis=-1), fmt="o", color="tab:blue",
                capsize=5, label="mean ± std")
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_title(title)
    ax.legend(loc="upper left")
axes[1].set_xlabel("row (token)")
fig.tight_layout()
plt.show()
print("means after:", Y.mean(axis=-1).round(6))
print("stds after: ", Y.std(axis=-1).round(6))
