"""Hostile (lesson 09): replaces torch.Tensor itself (in the torch module the grader's child sees)
with a class of its own whose instances claim to be float64 CPU tensors and hand the encoder an
object that says it is a small float64 array while its bytes are zeros of another size."""
import numpy as np
import torch

REAL = torch.Tensor


class Liar:
    dtype = np.dtype("float64")
    shape = (2, 2)
    size = 4

    def __array__(self, dtype=None, copy=None):
        return np.zeros(10**5)


class Fake:
    dtype = torch.float64
    layout = torch.strided
    device = torch.device("cpu")
    shape = (2, 2)

    def numel(self):
        return 4

    def storage_offset(self):
        return 0

    def stride(self):
        return (2, 1)

    def element_size(self):
        return 8

    def untyped_storage(self):
        return torch.zeros(4, dtype=torch.float64).untyped_storage()

    def detach(self):
        return self

    def resolve_conj(self):
        return self

    def resolve_neg(self):
        return self

    def numpy(self):
        return Liar()


torch.Tensor = Fake


def solve(Q, K, V, mask=None):
    return Fake()
