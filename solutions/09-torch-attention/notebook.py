# %% [markdown]
# ### The worked example, step by step, in PyTorch

# %%
import math

import torch

Q = torch.tensor([[1.0, 2.0]])
K = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = torch.eye(3)
mask = torch.tensor([[True, True, False]])
scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
print("scores        ", scores)
masked = scores.masked_fill(~mask, float("-inf"))
print("masked scores ", masked)
weights = torch.softmax(masked, dim=-1)
print("weights       ", weights)
print("output (V = I)", weights @ V)
print("without mask  ", torch.softmax(scores, dim=-1) @ V)

# %% [markdown]
# ### A picture: the weights with and without the mask
#
# The same query against the three keys: without the mask key 2 (the best match) wins; with it,
# key 2's weight is exactly 0 and the other two share the whole weight of 1.

# %%
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 2.8))
keys = torch.arange(3)
ax.bar(keys - 0.2, torch.softmax(scores, dim=-1)[0], width=0.4, label="no mask")
ax.bar(keys + 0.2, weights[0], width=0.4, label="key 2 masked")
ax.set_xticks(keys.tolist(), ["key 0", "key 1", "key 2"])
ax.set_ylabel("weight")
ax.legend()
plt.show()
