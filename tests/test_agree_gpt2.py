"""Lesson 12's reference equals GPT-2 as the transformers library implements it.

A `GPT2LMHeadModel` is built offline from a small random `GPT2Config` (dropout 0, eval mode, float64,
GPT-2's tanh GELU "gelu_new", layer_norm_epsilon 1e-5), its parameters are drawn at random (the
library's own initialisation has unit gains and zero biases, which would hide mistakes), and its
state dict, less the tied `lm_head.weight`, is handed to the lesson's `gpt_forward`. The logits must
agree to 1e-10, with the library's eager attention and with its SDPA attention. Every case of the
lesson is also checked against the library, so the hidden cases' expected answers are GPT-2's.
"""
from pathlib import Path

import numpy as np
import pytest
import torch
from transformers import GPT2Config, GPT2LMHeadModel

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
TIGHT = dict(rtol=1e-10, atol=1e-10)
LESSON = lesson.load(roadmap.load(ROOT), "12")
gpt_forward = LESSON.namespace()["gpt_forward"]


def gpt2(v, p, d, n_layers, n_heads, attn="eager"):
    config = GPT2Config(vocab_size=v, n_positions=p, n_embd=d, n_layer=n_layers, n_head=n_heads,
                        activation_function="gelu_new", layer_norm_epsilon=1e-5,
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                        bos_token_id=0, eos_token_id=v - 1)
    config._attn_implementation = attn
    return GPT2LMHeadModel(config).double().eval()


def randomise(model, seed):
    """Random gains, biases and weights (order-1 activations), drawn into the model in place."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, t in model.named_parameters():
            noise = torch.randn(t.shape, generator=gen, dtype=torch.float64)
            if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name.endswith("ln_f.weight"):
                t.copy_(1.0 + 0.3 * noise)
            elif name.endswith(".bias"):
                t.copy_(0.3 * noise)
            elif t.dim() == 2 and "h." in name:
                t.copy_(noise / t.shape[0] ** 0.5)   # Conv1D weights are (in, out)
            else:
                t.copy_(noise)                       # wte and wpe
    return model


def params_of(model):
    """The model's state dict as the lesson takes it: float64 tensors, without the tied head."""
    state = model.state_dict()
    assert torch.equal(state["lm_head.weight"], state["transformer.wte.weight"])  # tied
    return {k: t.clone() for k, t in state.items() if k != "lm_head.weight"}


@pytest.mark.parametrize("attn", ["eager", "sdpa"])
@pytest.mark.parametrize("b, t, v, p, d, n_layers, n_heads", [
    (2, 5, 17, 9, 12, 0, 3),
    (3, 7, 19, 10, 12, 1, 3),
    (2, 6, 23, 11, 20, 3, 4),
    (1, 9, 29, 16, 18, 3, 9),
    (4, 1, 13, 6, 8, 1, 1),
])
def test_logits_equal_gpt2lmheadmodel(attn, b, t, v, p, d, n_layers, n_heads):
    model = randomise(gpt2(v, p, d, n_layers, n_heads, attn), seed=b * 1000 + t * 100 + n_layers)
    params = params_of(model)
    assert sum(k.endswith(".ln_1.weight") for k in params) == n_layers
    ids = torch.randint(0, v, (b, t), generator=torch.Generator().manual_seed(v))
    with torch.no_grad():
        want = model(ids).logits
    got = gpt_forward(ids, params, n_heads)
    assert got.dtype == torch.float64 and got.shape == (b, t, v)
    np.testing.assert_allclose(got.numpy(), want.numpy(), **TIGHT)


def test_the_comparison_can_fail():
    """Guard: the library model really depends on what the lesson gets wrong easily."""
    model = randomise(gpt2(17, 9, 12, 1, 3), seed=5)
    params = params_of(model)
    ids = torch.randint(0, 17, (2, 7), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        want = model(ids).logits.numpy()
    three, one = gpt_forward(ids, params, 3).numpy(), gpt_forward(ids, params, 1).numpy()
    np.testing.assert_allclose(three, want, **TIGHT)
    assert not np.allclose(one, want, rtol=1e-6)  # the head count matters
    erf = gpt2(17, 9, 12, 1, 3)
    erf.config.activation_function = "gelu"
    erf.transformer.h[0].mlp.act = torch.nn.GELU()  # the exact GELU, which GPT-2 does not use
    erf.load_state_dict(model.state_dict())
    with torch.no_grad():
        assert not np.allclose(erf(ids).logits.numpy(), three, rtol=1e-6)


def library_model_for(params, n_heads):
    wte, wpe = params["transformer.wte.weight"], params["transformer.wpe.weight"]
    n_layers = sum(k.endswith(".ln_1.weight") for k in params)
    model = gpt2(wte.shape[0], wpe.shape[0], wte.shape[1], n_layers, n_heads)
    missing, unexpected = model.load_state_dict(params, strict=False)
    assert list(missing) == ["lm_head.weight"] and not unexpected
    assert torch.equal(model.lm_head.weight, wte)
    return model


@pytest.mark.parametrize("case", LESSON.cases, ids=[c.name for c in LESSON.cases])
def test_every_case_of_the_lesson_is_gpt2(case):
    for c, out in zip(case.calls, LESSON.expected[LESSON.cases.index(case)].outputs):
        ids, params, n_heads = c.args
        with torch.no_grad():
            want = library_model_for(params, n_heads)(ids).logits
        assert torch.isfinite(want).all()
        np.testing.assert_allclose(out.array, want.numpy(), **TIGHT)
