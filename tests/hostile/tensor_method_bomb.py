"""Hostile (lesson 09): returns a plain tensor after making Tensor.detach (which any code that reads
a tensor's values calls) raise KeyboardInterrupt, an exception that is not an Exception."""
import torch


def interrupt(self, *args, **kwargs):
    raise KeyboardInterrupt


def solve(Q, K, V, mask=None):
    q = torch.tensor(Q, dtype=torch.float64)
    torch.Tensor.detach = interrupt
    torch.Tensor.numpy = interrupt
    return q
