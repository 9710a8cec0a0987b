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
# Another way to see the same rotation: read pair `i` as the complex number `x_i + x_{i+d/2} j`.
# Turning it by an angle is multiplying by `exp(j angle)`, so a query at position `m + r` and a
# key at `m` meet through `exp(j (m + r) w) * conj(exp(j m w)) = exp(j r w)`: only the distance `r`
# is left. The real part of `sum(q_c * conj(k_c))` is the dot product of the rotated vectors.

# %%
def as_complex(v):
    return v[..., :half] + 1j * v[..., half:]


def turned_pairs(v, position):
    return as_complex(v) * np.exp(1j * position * freqs)


z = turned_pairs(x, 1)
print("x at position 1, as pairs  ", z.round(6))
print("back to columns            ", np.concatenate([z.real, z.imag]))
q, k = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.5, -1.0, 2.0, 1.0])
for m in (0, 100):
    dot = np.real(np.sum(turned_pairs(q, m + 2) * np.conj(turned_pairs(k, m))))
    print(f"q at {m + 2}, k at {m}: dot product {dot:.6g}")

# %% [markdown]
# ### A picture: each pair turns at its own speed, and the dot product depends on distance only
#
# Left: with `d = 8` there are four pairs; each small circle shows one pair of the vector `(1, 0)`
# at positions 0 to 20 (darker is later, position 0 at the right, the arrow at position 20). The
# picture uses `theta = 100` so that even the slowest pair moves visibly: pair `i` turns
# `100 ** (-2i/8)` radians per position, 1, 0.32, 0.1 and 0.03 (with `theta = 10000` the last pair
# would turn only 0.001). Right: a random
# query at position `m + r` against a random key at `m`, for distances `r` from 0 to 40, computed
# from two starting points `m` (default `theta`): the two curves are one.

# %%
import matplotlib.pyplot as plt

d, half = 8, 4
steps = np.arange(21)
picture_freqs = 100.0 ** (-2 * np.arange(half) / d)
fig, axes = plt.subplot_mosaic([["p0", "p1", "dot"], ["p2", "p3", "dot"]], figsize=(12, 5),
                               gridspec_kw={"width_ratios": [1, 1, 2.6]})
ring = np.linspace(0, 2 * np.pi, 200)
for i in range(half):
    ax = axes[f"p{i}"]
    ax.plot(np.cos(ring), np.sin(ring), color="0.85", lw=0.8)
    angles = steps * picture_freqs[i]
    ax.scatter(np.cos(angles), np.sin(angles), c=steps, cmap="viridis_r", s=22, zorder=3)
    ax.annotate("", xy=(np.cos(angles[-1]), np.sin(angles[-1])), xytext=(0, 0),
                arrowprops=dict(arrowstyle="->", color="0.4"))
    ax.set_aspect("equal")
    ax.set_xlim(-1.2, 1.2)
    ax.set_ylim(-1.2, 1.2)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"pair {i}: {picture_freqs[i]:.2g} rad/position", fontsize=9)

freqs = theta ** (-2 * np.arange(half) / d)             # the default theta for the scores
rng = np.random.default_rng(15)
q, k = rng.normal(size=d), rng.normal(size=d)
distances = np.arange(41)
right = axes["dot"]
for m, style, colour in ((0, "-", "0.3"), (500, "o", "tab:purple")):
    dots = np.real(np.sum(turned_pairs(q, (m + distances)[:, None]) * np.conj(turned_pairs(k, m)),
                          axis=-1))
    right.plot(distances, dots, style, ms=4, color=colour, label=f"key at m = {m}")
right.axhline(0, color="0.8", lw=0.8)
right.set_xlabel("distance r (query at m + r, key at m)")
right.set_ylabel("q . k after RoPE")
right.legend(loc="upper left")
right.set_title("the score is a function of r alone", fontsize=10)
fig.tight_layout()
plt.show()
