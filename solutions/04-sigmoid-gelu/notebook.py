# %% [markdown]
# ### The worked example, step by step
#
# The sigmoid through `tanh`, for `z = 1.5` and `z = -1000`, beside the naive formula.

# %%
import numpy as np

z = np.array([1.5, -1000.0])
half = z / 2
print("z / 2              ", half)
print("tanh(z / 2)        ", np.tanh(half).round(6))
print("sigmoid            ", (0.5 * (1 + np.tanh(half))).round(6))
with np.errstate(over="raise"):
    try:
        print("naive 1/(1+exp(-z))", 1 / (1 + np.exp(-z)))
    except FloatingPointError as e:
        print("naive 1/(1+exp(-z)) raises FloatingPointError:", e)

# %% [markdown]
# GELU's tanh approximation, for `z = 2` and `z = -1`: the cubic, the scale, the gate, the product.

# %%
z = np.array([2.0, -1.0])
cubic = z + 0.044715 * z**3
scaled = np.sqrt(2 / np.pi) * cubic
gate = 0.5 * (1 + np.tanh(scaled))
print("cubic   ", cubic.round(5))
print("scaled  ", scaled.round(6))
print("gate    ", gate.round(6))
print("gelu    ", (z * gate).round(6))

# %% [markdown]
# ### A picture: the curves, and where the naive sigmoid overflows
#
# Left: sigmoid, GELU, SiLU (`z * sigmoid(z)`, LLaMA's activation) and ReLU. GELU and SiLU dip
# below zero for small negative `z`, where ReLU is flat. Right: `exp(-z)` in float64 passes the
# largest float (about `1.8e308`) once `-z > 709.78`; from there the naive formula overflows, while
# the tanh form stays exact.

# %%
import matplotlib.pyplot as plt

grid = np.linspace(-6, 6, 400)
sigmoid = 0.5 * (1 + np.tanh(grid / 2))
gelu = grid * 0.5 * (1 + np.tanh(np.sqrt(2 / np.pi) * (grid + 0.044715 * grid**3)))
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
axes[0].plot(grid, sigmoid, label="sigmoid")
axes[0].plot(grid, gelu, label="GELU")
axes[0].plot(grid, grid * sigmoid, label="SiLU = z sigmoid(z)")
axes[0].plot(grid, np.maximum(grid, 0), "k:", label="ReLU")
axes[0].axhline(0, color="0.7", lw=0.8)
axes[0].set_ylim(-1, 3)
axes[0].set_xlabel("z")
axes[0].legend()
axes[0].set_title("activation curves")

far = np.linspace(-760, 0, 600)
log10_exp = -far / np.log(10)                 # log10 of exp(-z), computed without exp
fits = log10_exp <= np.log10(np.finfo(float).max)
axes[1].plot(far[fits], log10_exp[fits], label="log10 exp(-z): a float64")
axes[1].plot(far[~fits], log10_exp[~fits], color="tab:red", ls="--", label="exp(-z) = inf")
axes[1].axhline(np.log10(np.finfo(float).max), color="0.5", lw=0.8)
axes[1].axvspan(-760, -709.78, color="tab:red", alpha=0.15)
axes[1].text(-752, 150, "z < -709.78:\nthe naive sigmoid\noverflows", color="tab:red", fontsize=9)
axes[1].set_xlabel("z")
axes[1].set_ylabel("log10 exp(-z)")
axes[1].set_title("exp(-z) passes the largest float64")
axes[1].legend(loc="upper right", fontsize=8)
fig.tight_layout()
plt.show()
