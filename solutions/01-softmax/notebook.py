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
# ### A picture: the shift changes nothing but the range
#
# The same probabilities come out of logits centred anywhere; only the naive formula cares where.

# %%
import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 2, figsize=(8, 2.8))
axes[0].bar(["1000", "1001", "1002"], e / e.sum(), color="tab:blue")
axes[0].set_title("softmax of [1000, 1001, 1002]")
axes[0].set_ylim(0, 1)
axes[1].bar(["1", "2", "3"], small / small.sum(), color="tab:orange")
axes[1].set_title("softmax of [1, 2, 3]: the same bars")
axes[1].set_ylim(0, 1)
fig.tight_layout()
plt.show()
