# %% [markdown]
# ### The worked example, step by step
#
# The first two draws of a generator seeded with 0 become `wte` (3 x 2) and `wpe` (2 x 2), each
# times 0.02; the final layer norm gets ones and zeros.

# %%
import math

import torch

rng = torch.Generator().manual_seed(0)
z = torch.randn(3, 2, generator=rng, dtype=torch.float64)
print("first draw, standard normal:\n", z)
print("wte = 0.02 * draw:\n", 0.02 * z)
print("wpe = 0.02 * next draw:\n", 0.02 * torch.randn(2, 2, generator=rng, dtype=torch.float64))

# %% [markdown]
# The loss at initialisation: logits of standard deviation about `std * sqrt(width)` give a loss
# close to `ln V + sigma^2 / 2` while they are small.

# %%
import torch.nn.functional as F

V, width = 65, 32
gen = torch.Generator().manual_seed(1)
targets = torch.randint(V, (4096,), generator=gen)
for std in (0.02, 0.1, 0.3, 1.0):
    features = torch.randn(4096, width, generator=gen, dtype=torch.float64)   # a normalised stream
    wte = std * torch.randn(V, width, generator=gen, dtype=torch.float64)
    logits = features @ wte.T
    loss = F.cross_entropy(logits, targets).item()
    print(f"std {std:4}: logits' std {logits.std().item():6.3f}, loss {loss:7.3f}, "
          f"ln V = {math.log(V):.3f}, ln V + sigma^2/2 = {math.log(V) + logits.var().item() / 2:.3f}")

# %% [markdown]
# ### Two pictures: the loss at init against the weights' scale, and the stream through the blocks
#
# Left: the loss before training, as the standard deviation of the weights grows: GPT-2's 0.02
# sits on the `ln V` line; a standard deviation of 1 starts several nats above it. Right: the
# standard deviation of the residual stream after each of 24 blocks whose two outputs are random
# (as at initialisation), with the projections drawn with `std` and with `std / sqrt(2 L)`.

# %%
import matplotlib.pyplot as plt
import numpy as np

stds = np.geomspace(0.005, 2.0, 30)
losses = []
for std in stds:
    features = torch.randn(2048, width, generator=gen, dtype=torch.float64)
    wte = std * torch.randn(V, width, generator=gen, dtype=torch.float64)
    losses.append(F.cross_entropy(features @ wte.T, targets[:2048]).item())

L, d = 24, 256
def stream_stds(scale):
    x = 0.02 * torch.randn(512, d, generator=gen, dtype=torch.float64)
    out = [x.std().item()]
    for _ in range(2 * L):       # each block adds two outputs: attention's and the MLP's
        h = F.layer_norm(x, (d,))
        w = 0.02 * scale * torch.randn(d, d, generator=gen, dtype=torch.float64)
        x = x + h @ w
        out.append(x.std().item())
    return out[::2]

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
left.semilogx(stds, losses, "o-", ms=3)
left.axhline(math.log(V), color="grey", ls="--", lw=1, label=f"ln V = {math.log(V):.2f}")
left.axvline(0.02, color="tab:green", lw=1, label="std 0.02")
left.set_xlabel("standard deviation of the weights")
left.set_ylabel("loss at initialisation")
left.legend()
right.plot(stream_stds(1.0), label="projections with std")
right.plot(stream_stds(1 / math.sqrt(2 * L)), label="projections with std / sqrt(2L)")
right.set_xlabel("block")
right.set_ylabel("std of the residual stream")
right.legend()
fig.tight_layout()
plt.show()
