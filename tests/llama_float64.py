"""Run `transformers`' LLaMA code in float64 throughout, for comparisons at 1e-10.

`modeling_llama` computes RoPE's frequencies, angles, cosines and sines, RMSNorm's mean square and
its eager softmax in float32 whatever the model's dtype (`torch.float`, `torch.float32`,
`Tensor.float()`). Inside `float64_casts()` those casts mean float64, in that module only; no
formula changes, only the precision it is evaluated in. Build the library's modules inside it too:
RoPE's `inv_freq` is computed when the module is made.
"""
import contextlib
import types
from unittest import mock

import torch
from transformers.models.llama import modeling_llama


@contextlib.contextmanager
def float64_casts():
    """Inside modeling_llama, torch.float and torch.float32 mean float64; Tensor.float() too."""
    proxy = types.ModuleType("torch")
    proxy.__getattr__ = lambda name: getattr(torch, name)
    proxy.float = proxy.float32 = torch.float64
    with mock.patch.object(modeling_llama, "torch", proxy), \
            mock.patch.object(torch.Tensor, "float", torch.Tensor.double):
        yield
