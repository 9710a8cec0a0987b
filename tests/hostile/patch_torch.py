"""Hostile (lesson 09): at import, makes torch.allclose, torch.equal, torch.testing.assert_close
and Tensor.__eq__ always pass, then answers zeros of the right shape."""
import sys

import torch
import torch.nn.functional as F

try:
    import torch.testing   # patched too when it can be loaded
except ImportError:
    pass


def always_true(*args, **kwargs):
    return True


def never_fails(*args, **kwargs):
    return None


FAKES = {"allclose": always_true, "equal": always_true, "isclose": always_true,
         "assert_close": never_fails, "assert_allclose": never_fails}

for name, module in list(sys.modules.items()):
    if module is not None and (name == "torch" or name.startswith("torch.")):
        for attr, fake in FAKES.items():
            if attr in vars(module):
                try:
                    setattr(module, attr, fake)
                except Exception:
                    pass
try:
    torch.Tensor.__eq__ = lambda self, other: True
except Exception:
    pass


def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    attn_mask = None if mask is None else torch.tensor(mask, dtype=torch.bool)
    shape = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask).shape
    return torch.zeros(shape, dtype=torch.float64).tolist()
