# %% [markdown]
# ### The worked example, step by step
#
# `w = [[3, 0], [0, 4]]`, `b = [12]`, `max_norm = 1`, and the same with PyTorch's
# `clip_grad_norm_` on two parameters' `.grad`.

# %%
import torch

grads = {"w": torch.tensor([[3.0, 0.0], [0.0, 4.0]], dtype=torch.float64),
         "b": torch.tensor([12.0], dtype=torch.float64)}
norms = {k: torch.linalg.vector_norm(g).item() for k, g in grads.items()}
total = torch.linalg.vector_norm(torch.tensor(list(norms.values()))).item()
factor = min(1.0, 1.0 / (total + 1e-6))
print("per-tensor norms:", norms, " global norm:", total, " factor:", factor)
for k, g in grads.items():
    print(k, "->", (g * factor).tolist())

params = [torch.nn.Parameter(torch.zeros_like(g)) for g in grads.values()]
for p, g in zip(params, grads.values()):
    p.grad = g.clone()
print("torch returns", torch.nn.utils.clip_grad_norm_(params, 1.0).item(),
      "and leaves", [p.grad.tolist() for p in params])

# %% [markdown]
# ### A picture: one factor keeps the direction
#
# A gradient of two tensors, each drawn here as one coordinate: `g = (5, 12)`, norm 13, and
# `max_norm = 1` (the circle). Clipping the global norm moves it along its own direction onto the
# circle; clipping each tensor by its own norm gives `(1, 1)`, outside the circle and pointing
# elsewhere. Right: ten made-up norms before and after clipping: only the spikes change.

# %%
import math

import matplotlib.pyplot as plt

g = (5.0, 12.0)
n = math.hypot(*g)
global_clip = (g[0] / n, g[1] / n)
per_tensor = (1.0, 1.0)
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4))
circle = [(math.cos(t / 50 * 2 * math.pi), math.sin(t / 50 * 2 * math.pi)) for t in range(51)]
left.plot(*zip(*circle), color="grey", lw=1)
for (vx, vy), colour, label in ((g, "0.6", "gradient (5, 12)"),
                                (global_clip, "tab:green", "global clipping"),
                                (per_tensor, "tab:red", "per-tensor clipping")):
    scale = 0.1 if (vx, vy) == g else 1.0
    left.annotate("", xy=(vx * scale, vy * scale), xytext=(0, 0),
                  arrowprops=dict(arrowstyle="->", color=colour, lw=2))
    left.plot([], [], color=colour, lw=2, label=label + (" (drawn at 1/10)" if scale < 1 else ""))
left.set_aspect("equal")
left.set_xlim(-0.2, 1.4)
left.set_ylim(-0.2, 1.4)
left.legend(fontsize=8, loc="lower right")
left.set_title("max_norm = 1")

norms = [0.2, 0.5, 0.9, 1.5, 3.0, 12.0, 2.0, 0.7, 40.0, 1.1]
right.bar(range(len(norms)), norms, color="0.7", label="norm before clipping")
right.bar(range(len(norms)), [min(x, 1.0) for x in norms], color="tab:green",
          label="norm after clipping")
right.set_yscale("log")
right.axhline(1.0, color="k", lw=0.8)
right.set_xlabel("training step")
right.legend(fontsize=8)
right.set_title("ten steps' norms (made-up numbers)")
fig.tight_layout()
plt.show()
