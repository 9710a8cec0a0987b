# %% [markdown]
# ### The worked example, step by step
#
# One token `x = [2, -1]`, one head, identity weights except `Wo = 0.5 I`.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
x = np.array([2.0, -1.0])
I = np.eye(2)
norm1, norm2, eps = np.ones(2), np.array([1.0, 2.0]), 1e-5


def rms_normalise(v, gain):
    return gain * v / np.sqrt((v**2).mean() + eps)


n1 = rms_normalise(x, norm1)
print("1. first norm          ", n1)
attn = (n1 @ I) @ (0.5 * I)          # one token: its softmax weight is 1, so attention returns v
print("2. attention (v @ Wo)  ", attn)
h = x + attn
print("3. first residual h    ", h)
u = rms_normalise(h, norm2)
print("4. second norm u       ", u)
sig = 0.5 * (1 + np.tanh(u / 2))
print("5. sigmoid(u)          ", sig)
print("   SiLU(u) = u sigmoid  ", u * sig)
mlp = (u * sig) * u
print("   SiLU(u) * u (W2 = I) ", mlp)
print("6. output y = h + mlp  ", h + mlp)

# %% [markdown]
# ### A picture: SiLU, and where the naive formula overflows
#
# Left: SiLU `z * sigmoid(z)` beside ReLU and GELU: smooth, and slightly negative for small negative
# `z`. Right: `z / (1 + exp(-z))` computes `exp(-z)`, which is `inf` once `-z > 709.78`; the tanh
# form `z * (1 + tanh(z / 2)) / 2` never leaves the range.

# %%
import matplotlib.pyplot as plt

grid = np.linspace(-6, 6, 400)
silu = grid * 0.5 * (1 + np.tanh(grid / 2))
gelu = grid * 0.5 * (1 + np.tanh(np.sqrt(2 / np.pi) * (grid + 0.044715 * grid**3)))
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
axes[0].plot(grid, silu, label="SiLU")
axes[0].plot(grid, gelu, "--", label="GELU")
axes[0].plot(grid, np.maximum(grid, 0), "k:", label="ReLU")
axes[0].axhline(0, color="0.7", lw=0.8)
axes[0].set_ylim(-1, 3)
axes[0].set_xlabel("z")
axes[0].legend()
axes[0].set_title("SiLU, GELU, ReLU")

far = np.linspace(-760, 0, 600)
with np.errstate(over="ignore"):
    overflows = ~np.isfinite(np.exp(-far))
axes[1].plot(far, far * 0.5 * (1 + np.tanh(far / 2)), label="tanh form: always finite")
axes[1].axvspan(-760, -709.78, color="tab:red", alpha=0.15)
axes[1].axvline(-709.78, color="tab:red")
axes[1].text(-755, -0.5, "exp(-z) = inf:\nthe naive formula\noverflows", color="tab:red",
             fontsize=9)
axes[1].set_ylim(-1, 0.2)
axes[1].set_xlabel("z")
axes[1].set_title("SiLU for very negative z")
axes[1].legend(loc="lower right")
fig.tight_layout()
plt.show()
print(f"naive form overflows for {overflows.sum()} of {far.size} grid points (z < -709.78)")
