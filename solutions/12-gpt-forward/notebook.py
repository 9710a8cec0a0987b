# %% [markdown]
# ### The worked example, step by step
#
# The model with no blocks (`V = 3`, `P = 4`, `D = 2`) and `ids = [[2, 0]]`: embed, the final layer
# norm, the tied head. The layer norm is the one given in your file.

# %%
import math

import numpy as np
import torch

np.set_printoptions(precision=6, suppress=True)
f64 = torch.float64


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    centred = x - mean
    var = (centred ** 2).mean(dim=-1, keepdim=True)
    return centred / torch.sqrt(var + eps) * gamma + beta


def gelu(z):
    inner = math.sqrt(2.0 / math.pi) * (z + 0.044715 * z ** 3)
    return 0.5 * z * (1.0 + torch.tanh(inner))


wte = torch.tensor([[1.0, -0.5], [-0.5, 2.0], [0.25, -1.0]], dtype=f64)
wpe = torch.tensor([[0.5, -0.5], [-1.0, 1.0], [1.5, 0.0], [-1.0, 0.25]], dtype=f64)
ln_w, ln_b = torch.tensor([1.0, 2.0], dtype=f64), torch.tensor([0.0, 0.5], dtype=f64)
ids = torch.tensor([[2, 0]])
x = wte[ids] + wpe[:ids.shape[1]]
print("1. embedded x\n", x[0].numpy())
centred = x - x.mean(-1, keepdim=True)
var = (centred ** 2).mean(-1, keepdim=True)
print("   means            ", x.mean(-1).flatten().numpy())
print("   centred\n", centred[0].numpy())
print("   variances        ", var.flatten().numpy(), " sqrt(var + eps)",
      torch.sqrt(var + 1e-5).flatten().numpy())
h = layer_norm(x, ln_w, ln_b)
print("2. h = ln_f(x)\n", h[0].numpy())
print("3. logits h @ wte^T\n", (h @ wte.T)[0].numpy())

# %% [markdown]
# ### A picture: the residual stream through the blocks
#
# A small random model (`D = 16`, 2 heads, 6 blocks, `T = 8`). The line follows the length of each
# token's vector in the stream: after the embedding, after every attention and every MLP addition,
# and after `ln_f`. In a pre-norm model the stream is only ever added to, so its length drifts
# upward block by block; each sub-layer reads a normalised copy, and only `ln_f` brings the stream
# itself back to one scale before the head.

# %%
import matplotlib.pyplot as plt

gen = torch.Generator().manual_seed(12)
V, P, D, H, L, T = 11, 8, 16, 2, 6, 8
hs = D // H


def rnd(*shape, scale=0.3):
    return scale * torch.randn(*shape, generator=gen, dtype=f64)


p = {"wte": rnd(V, D, scale=1.0), "wpe": rnd(P, D, scale=0.5)}
for i in range(L):
    p[i] = {"ln1": (1 + rnd(D, scale=0.1), rnd(D, scale=0.1)),
            "attn": (rnd(D, 3 * D), rnd(3 * D, scale=0.1)), "proj": (rnd(D, D), rnd(D, scale=0.1)),
            "ln2": (1 + rnd(D, scale=0.1), rnd(D, scale=0.1)),
            "fc": (rnd(D, 4 * D), rnd(4 * D, scale=0.1)), "out": (rnd(4 * D, D), rnd(D, scale=0.1))}


def attention_part(u, b):       # PyTorch's fused attention stands in for the sub-layer you write
    q, k, v = (u @ b["attn"][0] + b["attn"][1]).split(D, dim=-1)
    heads = [a.view(1, T, H, hs).transpose(1, 2) for a in (q, k, v)]
    y = torch.nn.functional.scaled_dot_product_attention(*heads, is_causal=True)
    return y.transpose(1, 2).reshape(1, T, D) @ b["proj"][0] + b["proj"][1]


def mlp_part(u, b):
    return gelu(u @ b["fc"][0] + b["fc"][1]) @ b["out"][0] + b["out"][1]


ids = torch.randint(V, (1, T), generator=gen)
x = p["wte"][ids] + p["wpe"][:T]
stages, norms = ["embed"], [x.norm(dim=-1)[0]]
for i in range(L):
    x = x + attention_part(layer_norm(x, *p[i]["ln1"]), p[i])
    stages.append(f"{i}.attn")
    norms.append(x.norm(dim=-1)[0])
    x = x + mlp_part(layer_norm(x, *p[i]["ln2"]), p[i])
    stages.append(f"{i}.mlp")
    norms.append(x.norm(dim=-1)[0])
stages.append("ln_f")
norms.append(layer_norm(x, torch.ones(D, dtype=f64), torch.zeros(D, dtype=f64)).norm(dim=-1)[0])
norms = torch.stack(norms)                      # (stages, T)

fig, ax = plt.subplots(figsize=(10, 4))
for t in range(T):
    ax.plot(range(len(stages)), norms[:, t], color="0.75", lw=1, label="each token" if t == 0 else None)
ax.plot(range(len(stages)), norms.mean(dim=1), "o-", color="tab:blue", lw=2,
        label="mean over the 8 tokens")
ax.axhline(math.sqrt(D), color="tab:red", ls="--", lw=1, label="sqrt(D): a layer norm's output")
ax.set_xticks(range(len(stages)), stages, rotation=45)
ax.set_ylabel("length of a token's vector")
ax.set_xlabel("the stream after ...")
ax.set_ylim(0, None)
ax.legend(loc="upper left")
fig.tight_layout()
plt.show()
print("mean length after the embedding:", round(norms[0].mean().item(), 4),
      " after the last block:", round(norms[-2].mean().item(), 4),
      " after ln_f:", round(norms[-1].mean().item(), 4))
