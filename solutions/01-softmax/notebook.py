# %% [markdown]
# ### The worked example, step by step
#
# The naive formula first, on logits in the thousands: `exp(1000)` is too large for a float64.

# %%
import numpy as np

x = np.array([1000.0, 1001.0, 1002.0])
with np.errstate(over="ignore", invalid="ignore"):
    naive_exp = np.exp(x)
    print("exp(x)           ", naive_exp)
    print("naive softmax    ", naive_exp / naive_exp.sum())

# %% [markdown]
# Now shift by the maximum. Every step stays in range, and the result is the softmax of `[1, 2, 3]`.

# %%
shifted = x - x.max()
e = np.exp(shifted)
print("shifted logits   ", shifted)
print("exp(shifted)     ", e.round(6))
print("sum              ", round(e.sum(), 6))
print("probabilities    ", (e / e.sum()).round(7))
small = np.exp([1.0, 2.0, 3.0])
print("softmax([1,2,3]) ", (small / small.sum()).round(7))

# %% [markdown]
# ### A picture: the naive formula against the stable one, on large logits
#
# The same three logits `[1000, 1001, 1002]`. Left: the naive formula `exp(x) / sum(exp(x))`
# overflows, every `exp` is `inf` and `inf / inf` is `nan`: there is nothing to draw (red crosses).
# Right: subtracting the maximum first gives finite bars, the softmax of `[1, 2, 3]`.

# %%
import matplotlib.pyplot as plt

labels = ["1000", "1001", "1002"]
with np.errstate(over="ignore", invalid="ignore"):
    naive = np.exp(x) / np.exp(x).sum()
stable = e / e.sum()
fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
axes[0].bar(labels, np.nan_to_num(naive, nan=0.0), color="tab:red")
for i, value in enumerate(naive):
    axes[0].plot(i, 0.04, "x", color="tab:red", ms=12, mew=2)
    axes[0].text(i, 0.1, str(value), ha="center", color="tab:red", fontsize=11)
axes[0].text(1, 0.55, "exp(1000) = inf\ninf / inf = nan", ha="center", color="tab:red", fontsize=10)
axes[0].set_title("naive: exp(x) / sum(exp(x))")
axes[1].bar(labels, stable, color="tab:blue")
for i, value in enumerate(stable):
    axes[1].text(i, value + 0.02, f"{value:.4f}", ha="center", fontsize=10)
axes[1].set_title("stable: exp(x - max) / sum(exp(x - max))")
axes[0].set_ylim(0, 1)
axes[0].set_ylabel("probability")
for ax in axes:
    ax.set_xlabel("logit")
fig.tight_layout()
plt.show()
print("naive: ", naive, "  stable:", stable.round(6))
