# %% [markdown]
# ### The worked example, step by step
#
# `max_lr = 1`, `min_lr = 0.1`, `warmup_steps = 4`, `max_steps = 12`: each step's part of the
# schedule, its ratio and coefficient.

# %%
import math

max_lr, min_lr, warmup, max_steps = 1.0, 0.1, 4, 12
for step in range(14):
    if step < warmup:
        print(f"step {step:2d}  warmup   lr = {max_lr} * {step + 1}/{warmup} = {max_lr * (step + 1) / warmup:.6f}")
    elif step > max_steps:
        print(f"step {step:2d}  after    lr = min_lr = {min_lr}")
    else:
        ratio = (step - warmup) / (max_steps - warmup)
        coeff = 0.5 * (1 + math.cos(math.pi * ratio))
        print(f"step {step:2d}  decay    ratio {ratio:.3f}  coeff {coeff:.6f}  lr = {min_lr + coeff * (max_lr - min_lr):.6f}")

# %% [markdown]
# The same schedule from `torch.optim.lr_scheduler`: a `LinearLR` warmup followed by a
# `CosineAnnealingLR`, one `scheduler.step()` after each optimizer step.

# %%
import torch

param = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([param], lr=max_lr)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [
    torch.optim.lr_scheduler.LinearLR(opt, start_factor=1 / warmup, total_iters=warmup - 1),
    torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max_steps - warmup, eta_min=min_lr)],
    milestones=[warmup])
torch_lrs = []
for step in range(20):
    torch_lrs.append(opt.param_groups[0]["lr"])
    opt.step()
    sched.step()
print([round(x, 6) for x in torch_lrs[:max_steps + 1]])

# %% [markdown]
# ### A picture: the three parts, and two conventions next to this lesson's
#
# The lesson's schedule (thick), nanoGPT's warmup `(step + 1) / (warmup + 1)` (dashed: it never
# reaches the peak inside the warmup), and torch's `CosineAnnealingLR`, which past `max_steps`
# climbs back up unless the run stops or the rate is held at `min_lr`.

# %%
import matplotlib.pyplot as plt

def lr_at(step):
    if step < warmup:
        return max_lr * (step + 1) / warmup
    if step > max_steps:
        return min_lr
    return min_lr + 0.5 * (1 + math.cos(math.pi * (step - warmup) / (max_steps - warmup))) * (max_lr - min_lr)

def nanogpt(step):
    return max_lr * (step + 1) / (warmup + 1) if step < warmup else lr_at(step)

steps = list(range(20))
fig, ax = plt.subplots(figsize=(8, 3.6))
ax.axvspan(-0.5, warmup - 0.5, color="tab:orange", alpha=0.1, label="warmup")
ax.axvspan(warmup - 0.5, max_steps + 0.5, color="tab:blue", alpha=0.06, label="cosine decay")
ax.plot(steps, [lr_at(s) for s in steps], "o-", lw=2.5, label="lr_at (this lesson)")
ax.plot(steps, [nanogpt(s) for s in steps], "s--", ms=4, label="nanoGPT's warmup")
ax.plot(steps, torch_lrs, "x:", label="torch SequentialLR (no floor after max_steps)")
ax.axhline(min_lr, color="grey", lw=0.8)
ax.set_xlabel("step")
ax.set_ylabel("learning rate")
ax.set_xticks(steps)
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
