# %% [markdown]
# ### The worked example, step by step
#
# `ids = [[3, 0, 2]]` over `V = 4`: the shift, then for each kept position the largest logit, the
# shifted row's exponentials, log-sum-exp, and the loss.

# %%
import numpy as np
import torch

np.set_printoptions(precision=6, suppress=True)
logits = torch.tensor([[[2.0, 1.0, 0.0, -1.0], [0.5, 0.5, 3.0, 0.0], [1.0, 0.0, 0.0, 0.0]]],
                      dtype=torch.float64)
ids = torch.tensor([[3, 0, 2]])
scores, targets = logits[:, :-1], ids[:, 1:]
print("scores: positions 0 ..", scores.shape[1] - 1, "  targets ids[:, 1:] =", targets.tolist())
losses = []
for t in range(scores.shape[1]):
    row, y = scores[0, t], targets[0, t].item()
    m = row.max()
    e = torch.exp(row - m)
    lse = m + torch.log(e.sum())
    losses.append(lse - row[y])
    print(f"position {t}, target {y}: m = {m.item():g}, exp(row - m) = {e.numpy()},"
          f" sum {e.sum().item():.5f}")
    print(f"   log-sum-exp {lse.item():.6g} - logit {row[y].item():g} = loss {losses[-1].item():.6g}"
          f"  (p = {torch.exp(-losses[-1]).item():.6g})")
print("mean of", len(losses), "losses:", round(torch.stack(losses).mean().item(), 6))
print("with the last target ignored (-100), only position 0 is kept:", round(losses[0].item(), 6))

# %% [markdown]
# The same arithmetic survives logits ten thousand times larger, where `exp` alone overflows:

# %%
big = 10000 * logits[0, 0]
with torch.no_grad():
    print("exp(big) directly      ", torch.exp(big).numpy())
    print("m + log sum exp(z - m) ", (big.max() + torch.log(torch.exp(big - big.max()).sum())).item())

# %% [markdown]
# ### A picture: the shift, and the loss at each position
#
# Two sequences of six tokens with random logits over `V = 5` tokens; the second is padded at its
# end (`-100`). Left: which logits row is scored against which token: row `t` against `ids[t + 1]`,
# the last row against nothing, and ignored targets dropped. Right: each prediction's loss,
# `-log p(target)`; the mean (dashed) is over the kept bars only.

# %%
import matplotlib.pyplot as plt

gen = torch.Generator().manual_seed(13)
B, T, V = 2, 6, 5
Z = 2 * torch.randn(B, T, V, generator=gen, dtype=torch.float64)
seqs = torch.randint(V, (B, T), generator=gen)
seqs[1, 4:] = -100
tgt = seqs[:, 1:]
keep = tgt != -100
lse = torch.logsumexp(Z[:, :-1], dim=-1)
picked = Z[:, :-1].gather(-1, tgt.clamp(min=0).unsqueeze(-1)).squeeze(-1)
per = torch.where(keep, lse - picked, torch.nan)
mean = per[keep].mean().item()

fig, (left, right) = plt.subplots(1, 2, figsize=(12, 3.8), gridspec_kw={"width_ratios": [1.1, 1]})
for b in range(B):
    y0 = 1 - b
    for t in range(T):
        token = seqs[b, t].item()
        left.text(t, y0 + 0.22, "pad" if token == -100 else f"id {token}", ha="center", fontsize=9,
                  bbox=dict(boxstyle="round", fc="0.92", ec="0.6"))
        left.text(t, y0 - 0.22, f"z[{t}]", ha="center", fontsize=9, color="tab:blue")
        if t + 1 < T:
            ok = keep[b, t].item()
            left.annotate("", xy=(t + 0.85, y0 + 0.17), xytext=(t + 0.15, y0 - 0.12),
                          arrowprops=dict(arrowstyle="->", color="tab:green" if ok else "tab:red",
                                          ls="-" if ok else ":"))
        else:
            left.text(t + 0.45, y0 - 0.22, "no target", fontsize=8, color="0.5", va="center")
left.plot([], [], color="tab:green", label="scored: z[t] against ids[t + 1]")
left.plot([], [], color="tab:red", ls=":", label="target ignored (-100)")
left.set_xlim(-0.6, T + 0.7)
left.set_ylim(-0.75, 1.75)
left.set_yticks([1, 0], ["sequence 0", "sequence 1"])
left.set_xticks(range(T))
left.set_xlabel("position t")
left.legend(loc="upper center", fontsize=8, ncol=2)
left.set_title("the shift")

positions = torch.arange(T - 1)
for b, offset, colour in ((0, -0.2, "tab:blue"), (1, 0.2, "tab:orange")):
    right.bar(positions + offset, torch.nan_to_num(per[b]), width=0.4, color=colour,
              label=f"sequence {b}")
for t in range(T - 1):
    if not keep[1, t]:
        right.text(t + 0.2, 0.05, "ignored", rotation=90, ha="center", va="bottom", fontsize=8)
right.axhline(mean, color="k", ls="--", lw=1, label=f"mean over {keep.sum().item()} kept = {mean:.3f}")
right.set_xticks(positions.tolist(), [f"z[{t}] vs ids[{t + 1}]" for t in range(T - 1)], fontsize=8)
right.set_ylabel("-log p(target)")
right.legend(fontsize=8, loc="upper right")
right.set_title("the loss of each prediction")
fig.tight_layout()
plt.show()
