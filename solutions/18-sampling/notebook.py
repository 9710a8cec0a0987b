# %% [markdown]
# ### The worked example, step by step
#
# Five logits `[2, 1, 0.1, 1.5, -0.5]`, with the `softmax` given in your file: the plain softmax,
# temperature 0.5, top-k 3, top-p 0.8, both, and three draws.

# %%
import numpy as np

np.set_printoptions(precision=6, suppress=True)


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


logits = np.array([2.0, 1.0, 0.1, 1.5, -0.5])
p = softmax(logits)
print("softmax               ", p)
print("logits / 0.5          ", logits / 0.5, "->", softmax(logits / 0.5))

kth = np.sort(logits)[-3]
kept_k = np.where(logits >= kth, logits, -np.inf)
print("top-k 3: keep >=", kth, "->", softmax(kept_k))

order = np.argsort(-p)
before = np.cumsum(p[order]) - p[order]
print("sorted probabilities  ", p[order])
print("mass before each      ", before)
kept_p = np.zeros(5, dtype=bool)
kept_p[order[before < 0.8]] = True
print("top-p 0.8 keeps tokens", np.flatnonzero(kept_p), "->", softmax(np.where(kept_p, logits, -np.inf)))

q = softmax(kept_k)
order = np.argsort(-q)
before = np.cumsum(q[order]) - q[order]
print("top-k then top-p: mass before each", before)
both = np.zeros(5, dtype=bool)
both[order[before < 0.8]] = True
final = softmax(np.where(both, logits, -np.inf))
print("top-k 3, then top-p 0.8 ->", final)

cdf = np.cumsum(p)
print("CDF                   ", cdf)
for u in (0.3, 0.6, 0.95):
    print(f"u = {u}: token {int(np.sum(cdf <= u))}")

# %% [markdown]
# ### A picture: what each step leaves of the distribution
#
# The same five logits, each panel one setting of `next_token_probs`. Temperature reshapes every
# bar; top-k and top-p set some bars to exactly 0 (marked x) and share their mass among the rest.
# The dashed outlines are the plain softmax, for comparison; `z` under each token is its logit.
# The last panel shows that the order matters: top-p after top-k keeps only two tokens.

# %%
import matplotlib.pyplot as plt

panels = [("softmax (T = 1)", p), ("T = 0.5", softmax(logits / 0.5)), ("T = 2", softmax(logits / 2)),
          ("top-k = 3", softmax(kept_k)), ("top-p = 0.8", softmax(np.where(kept_p, logits, -np.inf))),
          ("top-k = 3, then top-p = 0.8", final)]
fig, axes = plt.subplots(2, 3, figsize=(12, 5.4), sharey=True)
tokens = np.arange(5)
for ax, (title, probs) in zip(axes.flat, panels):
    colours = ["tab:blue" if v > 0 else "0.8" for v in probs]
    ax.bar(tokens, probs, color=colours)
    ax.bar(tokens, p, color="none", edgecolor="0.4", ls="--", lw=0.8)
    for t, v in zip(tokens, probs):
        ax.text(t, max(v, p[t]) + 0.02, "x" if v == 0 else f"{v:.2f}", ha="center", fontsize=8,
                color="tab:red" if v == 0 else "black")
    ax.set_title(title, fontsize=10)
    ax.set_xticks(tokens, [f"token {t}\nz = {l:g}" for t, l in zip(tokens, logits)], fontsize=8)
    ax.set_ylim(0, 0.8)
for ax in axes[:, 0]:
    ax.set_ylabel("probability")
axes[0, 0].plot([], [], color="0.4", ls="--", lw=0.8, label="plain softmax (outline)")
axes[0, 0].legend(loc="upper right", fontsize=8)
fig.tight_layout()
plt.show()
