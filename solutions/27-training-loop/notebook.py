# %% [markdown]
# ### The pieces, one at a time
#
# `backward()` adds into `.grad`: two backward passes without clearing leave twice the gradient.

# %%
import math

import torch
import torch.nn.functional as F

w = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
(w ** 2).sum().backward()
print("after one backward:  w.grad =", w.grad.tolist())
(w ** 2).sum().backward()
print("after two backwards: w.grad =", w.grad.tolist(), "(the sum of both)")
w.grad = None
(w ** 2).sum().backward()
print("cleared first:       w.grad =", w.grad.tolist())

# %% [markdown]
# Under `torch.no_grad()` nothing is recorded: the result has no graph to backpropagate through.
# And perplexity is `exp` of the mean loss, which is not the mean of the batches' perplexities.

# %%
with torch.no_grad():
    y = (w ** 2).sum()
print("requires_grad inside no_grad:", y.requires_grad)
losses = [2.1, 2.5, 1.9]
print("exp(mean loss) =", round(math.exp(sum(losses) / 3), 4),
      "  mean of exp(loss) =", round(sum(map(math.exp, losses)) / 3, 4))

# %% [markdown]
# A generator's state can be read and put back: the draws after it are then the same.

# %%
g = torch.Generator().manual_seed(0)
torch.randint(10, (3,), generator=g)
state = g.get_state()
print("next draws:", torch.randint(10, (3,), generator=g).tolist())
again = torch.Generator()
again.set_state(state)
print("from the saved state:", torch.randint(10, (3,), generator=again).tolist())

# %% [markdown]
# ### A picture: a small run, the same run resumed, and a run without `zero_grad`
#
# The simplest language model there is, a table of next-token logits (`logits = table[x]`),
# trained with `torch.optim.AdamW` on a text where each token usually follows from the one before
# (the hidden cases' kind of text; its floor is the dashed line). The run resumed from a
# checkpoint at step 40 (the parameters, the optimizer's state, the step and the generator's
# state) lies exactly on the uninterrupted one. Without clearing the gradients, every step
# follows the sum of all the gradients so far: the loss swings wider and wider and climbs.

# %%
import matplotlib.pyplot as plt

V, keep = 11, 0.8
gen = torch.Generator().manual_seed(1)
tokens = [0]
for _ in range(3000):
    follow = torch.rand(1, generator=gen).item() < keep
    tokens.append((3 * tokens[-1] + 2) % V if follow else int(torch.randint(V, (1,), generator=gen)))
text = torch.tensor(tokens)
top, other = keep + (1 - keep) / V, (1 - keep) / V
floor = -(top * math.log(top) + (V - 1) * other * math.log(other))

def batch(rng, size=32):
    starts = torch.randint(len(text) - 1, (size,), generator=rng)
    return text[starts], text[starts + 1]

def run(steps, zero_grad=True, resume_at=None):
    table = torch.nn.Parameter(torch.zeros(V, V))
    opt = torch.optim.AdamW([table], lr=0.05)
    rng, losses = torch.Generator().manual_seed(2), []
    for step in range(steps):
        if step == resume_at:      # save everything, forget it, load it back
            saved = {"table": table.detach().clone(), "opt": opt.state_dict(), "rng": rng.get_state()}
            table = torch.nn.Parameter(saved["table"])
            opt = torch.optim.AdamW([table], lr=0.05)
            opt.load_state_dict(saved["opt"])
            rng = torch.Generator()
            rng.set_state(saved["rng"])
        x, y = batch(rng)
        if zero_grad:
            opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(table[x], y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses

whole, resumed, piled = run(120), run(120, resume_at=40), run(120, zero_grad=False)
print("resumed run identical to the uninterrupted one:", whole == resumed)
fig, ax = plt.subplots(figsize=(8, 3.6))
ax.plot(whole, lw=2.5, label="uninterrupted")
ax.plot(range(40, 120), resumed[40:], "--", lw=1.5, label="resumed from the checkpoint at step 40")
ax.plot(piled, lw=1, label="no zero_grad: gradients pile up")
ax.axhline(floor, color="grey", ls="--", lw=1, label=f"the text's floor, {floor:.3f}")
ax.axhline(math.log(V), color="grey", ls=":", lw=1, label=f"ln V = {math.log(V):.3f}")
ax.set_xlabel("step")
ax.set_ylabel("training loss")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
