# %% [markdown]
# ### The worked example, step by step
#
# `w = [1, -2]`, gradient `g = [0.5, -0.1]`, `lr = 0.1` and the default betas, `eps` and weight
# decay: the moments, the bias corrections, the decay and the new weights; then a second step.

# %%
import numpy as np
import torch

np.set_printoptions(precision=6, suppress=True)
f64 = torch.float64
lr, (b1, b2), eps, wd = 0.1, (0.9, 0.999), 1e-8, 0.01
w = torch.tensor([1.0, -2.0], dtype=f64)
g = torch.tensor([0.5, -0.1], dtype=f64)
m = (1 - b1) * g
v = (1 - b2) * g ** 2
print("1. m =", m.numpy(), " v =", v.numpy())
m_hat, v_hat = m / (1 - b1 ** 1), v / (1 - b2 ** 1)
print("2. m_hat =", m_hat.numpy(), " v_hat =", v_hat.numpy(), " m_hat / sqrt(v_hat) =",
      (m_hat / v_hat.sqrt()).numpy())
print("3. decay lr * wd * w =", (lr * wd * w).numpy())
w1 = w - lr * wd * w - lr * m_hat / (v_hat.sqrt() + eps)
print("4. w =", w1.numpy())

g2 = torch.tensor([0.3, 0.2], dtype=f64)
m2, v2 = b1 * m + (1 - b1) * g2, b2 * v + (1 - b2) * g2 ** 2
c1, c2 = 1 - b1 ** 2, 1 - b2 ** 2
with np.printoptions(precision=8):
    print("second step: m =", m2.numpy(), " v =", v2.numpy(), " corrections", round(c1, 6), round(c2, 6))
print("   step of each weight, in units of lr:", ((m2 / c1) / (v2 / c2).sqrt()).numpy())

# %% [markdown]
# `torch.optim.AdamW` takes the same two steps (and is what the grader checks your update against):

# %%
p = torch.nn.Parameter(w.clone())
opt = torch.optim.AdamW([p], lr=lr, betas=(b1, b2), eps=eps, weight_decay=wd)
for grad in (g, g2):
    p.grad = grad.clone()
    opt.step()
    print("torch.optim.AdamW:", p.detach().numpy())
print("by hand, first step:", w1.numpy())

# %% [markdown]
# ### A picture: AdamW against plain gradient descent on a stretched bowl
#
# The loss `f(w) = (10 w0^2 + 0.1 w1^2) / 2` is a hundred times steeper along `w0` than along
# `w1`, as the directions of a real model's loss often are. Gradient descent (SGD, `lr = 0.15`, near
# the largest that does not diverge along `w0`) takes a step proportional to the gradient: it
# bounces across the steep direction, then crawls along the flat one. AdamW (`lr = 0.1`) divides
# each coordinate's step by that coordinate's own running gradient size, so both coordinates move at
# about `lr` per step: it overshoots a little, but after 60 steps (from `w = (1, 4)`) it is near the
# bottom while SGD is still far up the flat valley.

# %%
import matplotlib.pyplot as plt

curv = torch.tensor([10.0, 0.1], dtype=f64)


def loss_of(w):
    return 0.5 * (curv * w ** 2).sum()


def run(make_opt, steps=60):
    p = torch.nn.Parameter(torch.tensor([1.0, 4.0], dtype=f64))
    opt = make_opt([p])
    path, losses = [p.detach().clone()], [loss_of(p).item()]
    for _ in range(steps):
        opt.zero_grad()
        loss_of(p).backward()
        opt.step()
        path.append(p.detach().clone())
        losses.append(loss_of(p).item())
    return torch.stack(path), losses


runs = {"SGD, lr = 0.15": run(lambda ps: torch.optim.SGD(ps, lr=0.15)),
        "AdamW, lr = 0.1": run(lambda ps: torch.optim.AdamW(ps, lr=0.1))}
fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.4))
a, b = torch.meshgrid(torch.linspace(-1.3, 1.3, 120, dtype=f64),
                      torch.linspace(-1, 4.5, 120, dtype=f64), indexing="ij")
left.contour(a, b, 0.5 * (curv[0] * a ** 2 + curv[1] * b ** 2), levels=12, colors="0.8",
             linewidths=0.8)
for (name, (path, losses)), colour in zip(runs.items(), ("tab:red", "tab:blue")):
    left.plot(path[:, 0], path[:, 1], ".-", color=colour, lw=1, ms=4, label=name)
    right.semilogy(losses, color=colour, label=name)
left.plot(0, 0, "k*", ms=10)
left.set_xlabel("w0 (steep)")
left.set_ylabel("w1 (flat)")
left.legend(loc="lower left", fontsize=8)
left.set_title("the paths, from (1, 4) to the minimum (star)", fontsize=10)
right.set_xlabel("step")
right.set_ylabel("loss (log scale)")
right.legend(loc="upper right", fontsize=8)
right.set_title("the loss at each step", fontsize=10)
fig.tight_layout()
plt.show()
for name, (path, losses) in runs.items():
    print(f"{name}: loss after 60 steps {losses[-1]:.3g}, w = {path[-1].numpy().round(4)}")
