# %% [markdown]
# ### The worked example, step by step
#
# The model with no blocks (`V = 3`, `D = 2`, `eps = 1e-6`) and `ids = [[2, 0]]`: embed, the final
# RMSNorm, the untied head. Then the same with the embedding a thousand times smaller, where `eps`
# decides the scale.

# %%
import torch

torch.set_printoptions(precision=6, sci_mode=False)
f64 = torch.float64


def rmsnorm(x, gamma, eps=1e-5):
    mean_square = (x ** 2).mean(dim=-1, keepdim=True)
    return x / torch.sqrt(mean_square + eps) * gamma


embed = torch.tensor([[1.0, -0.5], [-0.5, 2.0], [0.25, -1.0]], dtype=f64)
norm = torch.tensor([1.0, 2.0], dtype=f64)
head = torch.tensor([[1.0, 0.0, -1.0], [0.5, -1.0, 2.0]], dtype=f64)
ids = torch.tensor([[2, 0]])
x = embed[ids]
print("1. embedded x (no positions added)\n", x[0])
ms = (x ** 2).mean(dim=-1)
print("   mean squares", ms[0], " roots with eps", torch.sqrt(ms + 1e-6)[0])
h = rmsnorm(x, norm, 1e-6)
print("2. h = rmsnorm(x, norm, 1e-6)\n", h[0])
print("3. logits h @ head\n", (h @ head)[0])
print("   a tied head, h @ embed.T, would give\n", (h @ embed.T)[0])
small = 1e-3 * x
for eps in (1e-6, 1e-5):
    print(f"tiny embedding, eps = {eps:g}: logits\n", (rmsnorm(small, norm, eps) @ head)[0])

# %% [markdown]
# ### A picture: which key/value head each query head reads
#
# Eight query heads and two key/value heads, so groups of four. Each square says which key/value
# head (columns) a query head (rows) reads. Left: `repeat_interleave`, the grouping of GQA and of
# `transformers`, where consecutive query heads share a head. Right: `repeat` (or `tile`), which
# deals the key/value heads out round-robin. With one key/value head, or one per query head, the two
# pictures are the same, which is why only a case with `1 < n_kv_heads < n_heads` tells them apart.

# %%
import matplotlib.pyplot as plt

H, KV = 8, 2
heads = torch.arange(KV)[None, :, None, None].to(f64)          # (1, KV, 1, 1): each head's own number
fig, axes = plt.subplots(1, 2, figsize=(8, 4.2), sharey=True)
for ax, (title, shared) in zip(axes, [("repeat_interleave (right)", heads.repeat_interleave(H // KV, dim=1)),
                                      ("repeat (wrong)", heads.repeat(1, H // KV, 1, 1))]):
    reads = shared.flatten().long()                             # the key/value head of each query head
    grid = torch.zeros(H, KV)
    grid[torch.arange(H), reads] = 1
    ax.imshow(grid, cmap="Blues", vmin=0, vmax=1.3, aspect="auto")
    ax.set_xticks(range(KV), [f"kv {j}" for j in range(KV)])
    ax.set_yticks(range(H), [f"query {h}" for h in range(H)])
    ax.set_title(title)
    print(f"{title:26s} query heads read kv heads {reads.tolist()}")
fig.tight_layout()
plt.show()
