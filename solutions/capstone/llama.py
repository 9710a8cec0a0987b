"""The capstone's LLaMA-style model (WORKBOOK_CAPSTONE_MODEL=llama): lesson 30's llama_forward
with the capstone's own initialisation and loss-at-init report (no lesson writes these for LLaMA's
names), and the tiny input on which a learner's llama_forward is tried."""
import math

import torch

KV_HEADS = 2          # the capstone's key/value heads: two query heads share each (n_heads = 4)


def kv_heads(params, n_heads):
    """How many key/value heads `params` holds: the width of a block's Wk over the head size."""
    d = params["embed"].shape[1]
    return params["layers.0.Wk"].shape[1] * n_heads // d


def forward_of(llama_forward):
    """`llama_forward` as the capstone calls a model: (ids, params, n_heads) -> logits."""
    return lambda ids, params, n_heads: llama_forward(ids, params, n_heads, kv_heads(params, n_heads))


def init(vocab_size, width, n_layers, n_heads, n_kv_heads, generator, hidden=None):
    """GPT-2's rules (lesson 24) on LLaMA's names, float64: every weight drawn from N(0, 0.02^2),
    the two that write into the residual stream (Wo, W2) scaled down by sqrt(2 L), gains 1. The MLP
    is about 8D/3 wide (a multiple of 16), LLaMA's choice for a SwiGLU of GPT-2's parameter count."""
    hidden = hidden or 16 * math.ceil(8 * width / 3 / 16)
    kv = n_kv_heads * width // n_heads
    normal = lambda *shape, std=0.02: std * torch.randn(*shape, generator=generator, dtype=torch.float64)
    ones = lambda: torch.ones(width, dtype=torch.float64)
    residual = 0.02 / math.sqrt(2 * n_layers)
    params = {"embed": normal(vocab_size, width)}
    for i in range(n_layers):
        pre = f"layers.{i}."
        params |= {pre + "norm1": ones(), pre + "Wq": normal(width, width),
                   pre + "Wk": normal(width, kv), pre + "Wv": normal(width, kv),
                   pre + "Wo": normal(width, width, std=residual), pre + "norm2": ones(),
                   pre + "W1": normal(width, hidden), pre + "W3": normal(width, hidden),
                   pre + "W2": normal(hidden, width, std=residual)}
    return params | {"norm": ones(), "head": normal(width, vocab_size)}


def init_report_of(forward, batch_loss):
    """Lesson 24's init_report for this model: (params, x, y, n_heads) -> the batch loss, ln V and
    their gap."""
    def init_report(params, x, y, n_heads):
        with torch.no_grad():
            loss = batch_loss(forward(x, params, n_heads), y).item()
        uniform = math.log(params["embed"].shape[0])
        return {"loss": loss, "uniform": uniform, "gap": loss - uniform}
    return init_report


def tiny_llama(vocab=7, width=16, n_layers=2, n_heads=4, seed=1):
    """Small random parameters (larger than an initialisation, so that answers differ), with
    KV_HEADS key/value heads of size 4, so that RoPE's pairing and the sharing order both show."""
    g = torch.Generator().manual_seed(seed)
    p = init(vocab, width, n_layers, n_heads, KV_HEADS, g)
    return {k: (1 + 0.2 * torch.randn(t.shape, generator=g, dtype=torch.float64)) if t.dim() == 1
            else 0.7 * torch.randn(t.shape, generator=g, dtype=torch.float64) / t.shape[0] ** 0.5
            for k, t in p.items()}
