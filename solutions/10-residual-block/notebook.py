# %% [markdown]
# ### The worked example, step by step, in PyTorch
#
# One token, `X = [[1, 0, -1]]`: attention, the first residual, the norm, the feed-forward residual.

# %%
import math

import torch

X = torch.tensor([[1.0, 0.0, -1.0]], dtype=torch.float64)   # float64, as the lesson asks
scores = X @ X.T / math.sqrt(X.shape[-1])
print("score            ", scores)
a = torch.softmax(scores, dim=-1) @ X
print("attention output ", a)
r = X + a
print("first residual   ", r)
mean, var = r.mean(-1, keepdim=True), r.var(-1, unbiased=False, keepdim=True)
h = (r - mean) / torch.sqrt(var + 1e-5)
print("mean, variance   ", mean.item(), round(var.item(), 5))
print("normalised h     ", h)
print("ReLU(h)          ", torch.relu(h))
print("h + ReLU(h)      ", h + torch.relu(h))

# %% [markdown]
# ### A picture: what each step does to the token's three numbers
#
# The last entry: ReLU sets it to 0, yet the output keeps `-1.22474`, carried past the ReLU by the
# residual connection.

# %%
import matplotlib.pyplot as plt

stages = [("X", X), ("attention a", a), ("X + a", r), ("norm h", h), ("ReLU(h)", torch.relu(h)),
          ("h + ReLU(h)", h + torch.relu(h))]
fig, ax = plt.subplots(figsize=(9, 3))
for j in range(3):
    ax.plot(range(len(stages)), [s[0, j].item() for _, s in stages], "o-", label=f"entry {j}")
ax.set_xticks(range(len(stages)), [name for name, _ in stages])
ax.axhline(0, color="0.7", lw=0.8)
ax.legend()
plt.show()
