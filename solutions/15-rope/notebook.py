# %% [markdown]
# ### The worked example, step by step
#
# `d = 4`, `theta = 10000`, `x = [1, 2, 3, 4]` at position 1: the frequencies, the pairs, each
# pair's angle, cosine and sine, and the rotated columns.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)
x, position, theta = np.array([1.0, 2.0, 3.0, 4.0]), 1, 10000.0
d = x.size
half = d // 2
freqs = theta ** (-2 * np.arange(half) / d)
print("frequencies        ", freqs)
out = x.copy()
for i in range(half):
    angle = position * freqs[i]
    c, s = np.cos(angle), np.sin(angle)
    a, b = x[i], x[i + half]
    out[i], out[i + half] = a * c - b * s, b * c + a * s
    print(f"pair {i}: columns ({i}, {i + half}) = ({a:g}, {b:g}), angle {angle:g},"
          f" cos {c:.6g}, sin {s:.6g} -> ({out[i]:.6g}, {out[i + half]:.6g})")
print("rotated            ", out)
print("length before/after", np.linalg.norm(x).round(5), np.linalg.norm(out).round(5))

# %% [markdown]
# The same steps as whole-array operations, the way `rope` has to do them (no loops), for `q` and
# `k`: the dot product of `q` at position `m + 2` with `k` at `m` does not depend on `m`.

# %%
def turned(v, positions):
    angles = positions[:, None] * freqs[None, :]          # (T, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    first, second = v[..., :half], v[..., half:]
    return np.concatenate([first * cos - second * sin, second * cos + first * sin], axis=-1)


print("x at positions 0, 1, 2\n", turned(np.array([x] * 3), np.array([0, 1, 2])))
q, k = np.array([[1.0, 2.0, 3.0, 4.0]]), np.array([[0.5, -1.0, 2.0, 1.0]])
for m in (0, 100):
    dot = np.sum(turned(q, np.array([m + 2])) * turned(k, np.array([m])))
    print(f"q at {m + 2}, k at {m}: dot product {dot:.6g}")

# %% [markdown]
# ### A picture: each pair turns at its own speed, and the dot product depends on distance only
#
# Left: with `d = 8` there are four pairs; the dots are pair `i` of the vector `(1, 0)` at positions
# 0 to 12 (darker is later). Pair 0 turns one radian per position; each later pair turns 10 times
# more slowly (`theta = 10000`, so the factor is `10000 ** (2/8) = 10`). Right: a query at position
# `m + r` against a key at `m`, for distances `r` from 0 to 40, computed from two starting points
# `m`: the two curves are one.

# %%
import matplotlib.pyplot as plt

d, half = 8, 4
freqs = theta ** (-2 * np.arange(half) / d)
steps = np.arange(13)
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [1, 1.4]})
ring = np.linspace(0, 2 * np.pi, 200)
colours = ["tab:blue", "tab:orange", "tab:green", "tab:red"]
for i in range(half):
    radius = 1 - 0.2 * i                            # pairs drawn on nested circles to keep apart
    left.plot(radius * np.cos(ring), radius * np.sin(ring), color="0.9", lw=0.8)
    angles = steps * freqs[i]
    left.scatter(radius * np.cos(angles), radius * np.sin(angles), c=steps, cmap="Greys",
                 vmin=-4, vmax=12, edgecolors=colours[i], s=30, zorder=3,
                 label=f"pair {i}: {freqs[i]:g} rad per position")
left.set_aspect("equal")
left.set_xlim(-1.15, 1.15)
left.set_ylim(-1.15, 1.6)
left.set_xticks([])
left.set_yticks([])
left.legend(loc="upper center", fontsize=8, ncol=2)
left.set_title("positions 0 .. 12, one circle per pair")

rng = np.random.default_rng(15)
q, k = rng.normal(size=(1, d)), rng.normal(size=(1, d))
distances = np.arange(41)
for m, style in ((0, "-"), (500, "o")):
    dots = [np.sum(turned(q, np.array([m + r])) * turned(k, np.array([m]))) for r in distances]
    right.plot(distances, dots, style, ms=4, label=f"key at m = {m}", color="tab:purple" if m else "0.3")
right.axhline(0, color="0.8", lw=0.8)
right.set_xlabel("distance r (query at m + r, key at m)")
right.set_ylabel("q . k after RoPE")
right.legend(loc="upper right")
right.set_title("the score is a function of r alone")
fig.tight_layout()
plt.show()
