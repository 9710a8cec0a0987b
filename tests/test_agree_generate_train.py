"""The references of lessons 20 and 22 agree with independent implementations.

20 (generation with a context window): greedy output equals Hugging Face transformers'
`GPT2LMHeadModel.generate(do_sample=False)` on a tiny random GPT-2 in float64, with and without an
end token. 22 (one training step): the given GPT-2 forward equals `GPT2LMHeadModel` loaded from the
same state dict, and several steps of the hand-written AdamW equal `torch.optim.AdamW` (parameters
and losses).
"""
from pathlib import Path

import numpy as np
import pytest
import torch

from grader.lessons import lesson, roadmap

transformers = pytest.importorskip("transformers")

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12


def reference(name):
    return lesson.load(roadmap.load(ROOT), name).namespace()


@pytest.fixture(scope="module")
def gen():
    return reference("20")["generate"]


@pytest.fixture(scope="module")
def ts():
    return reference("22")


def tiny_gpt2(seed, vocab=23, n_positions=16, n_embd=12, n_layer=2, n_head=3, eos=None):
    torch.manual_seed(seed)
    config = transformers.GPT2Config(vocab_size=vocab, n_positions=n_positions, n_embd=n_embd,
                                     n_layer=n_layer, n_head=n_head, resid_pdrop=0.0,
                                     embd_pdrop=0.0, attn_pdrop=0.0,
                                     bos_token_id=0, eos_token_id=vocab - 1 if eos is None else eos,
                                     pad_token_id=vocab - 1 if eos is None else eos)
    model = transformers.GPT2LMHeadModel(config).to(torch.float64).eval()
    with torch.no_grad():   # larger weights than the initialiser's, so the greedy text varies
        for p in model.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return model


def logits_fn_of(model):
    def logits_fn(ids):
        with torch.no_grad():
            return model(ids).logits
    return logits_fn


@pytest.mark.parametrize("seed, batch, t0, new", [(0, 1, 3, 8), (1, 2, 5, 6), (2, 3, 1, 10),
                                                  (3, 2, 7, 9)])
def test_greedy_equals_transformers_generate(gen, seed, batch, t0, new):
    model = tiny_gpt2(seed)
    ids = torch.randint(0, 22, (batch, t0), generator=torch.Generator().manual_seed(seed))
    with torch.no_grad():
        want = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                              max_new_tokens=new, min_new_tokens=new, eos_token_id=None,
                              pad_token_id=22)
    got = gen(logits_fn_of(model), ids, new, 16)
    assert torch.equal(got, want)


@pytest.mark.parametrize("seed, batch", [(4, 1), (5, 2), (6, 3), (7, 2)])
def test_greedy_with_end_token_equals_transformers_generate(gen, seed, batch):
    """An end token that the model emits within the limit (the first one it writes after a step
    or two); finished rows are padded with it, and generation stops when all rows are done."""
    model = tiny_gpt2(seed)
    ids = torch.randint(0, 22, (batch, 4), generator=torch.Generator().manual_seed(seed))
    free = gen(logits_fn_of(model), ids, 10, 16)[:, 4:]
    eos = int(free[0, 1])
    model.generation_config.eos_token_id = eos
    model.generation_config.pad_token_id = eos
    with torch.no_grad():
        want = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                              max_new_tokens=10, eos_token_id=eos, pad_token_id=eos)
    got = gen(logits_fn_of(model), ids, 10, 16, eos_id=eos)
    assert got.shape[1] < 14 or batch > 1
    assert torch.equal(got, want)


def state_dict_params(model):
    """The model's parameters under their state-dict names, without the tied output layer."""
    return {k: v.detach().clone() for k, v in model.state_dict().items()
            if k != "lm_head.weight" and not k.endswith(".attn.bias")
            and not k.endswith(".attn.masked_bias")}


@pytest.mark.parametrize("n_layer, n_head", [(0, 2), (1, 3), (3, 4)])
def test_given_forward_equals_gpt2lmheadmodel(ts, n_layer, n_head):
    model = tiny_gpt2(10 + n_layer, n_layer=n_layer, n_head=n_head, n_embd=12)
    ids = torch.randint(0, 23, (3, 9), generator=torch.Generator().manual_seed(n_layer))
    with torch.no_grad():
        want = model(ids).logits
    got = ts["gpt2_logits"](state_dict_params(model), ids, n_head)
    torch.testing.assert_close(got, want, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("lr, betas, eps, wd, steps", [
    (1e-2, (0.9, 0.999), 1e-8, 0.01, 6),
    (3e-3, (0.8, 0.95), 1e-6, 0.1, 5),
    (5e-2, (0.7, 0.9), 1e-8, 0.0, 4),
    (2e-2, (0.9, 0.99), 1e-8, 0.5, 7),
])
def test_train_steps_equal_torch_adamw(ts, lr, betas, eps, wd, steps):
    model = tiny_gpt2(20, n_layer=2, n_head=3)
    model.train()  # dropout is 0, so train and eval modes agree
    gen_ids = torch.Generator().manual_seed(21)
    batches = [torch.randint(0, 23, (3, 10), generator=gen_ids) for _ in range(steps)]
    params = state_dict_params(model)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=betas, eps=eps, weight_decay=wd)
    torch_losses = []
    for ids in batches:
        opt.zero_grad()
        logits = model(ids).logits   # transformers' own loss upcasts to float32: shift by hand
        loss = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, 23), ids[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        torch_losses.append(loss.item())
    losses, got, state = ts["train"](params, batches, 3, lr, betas, eps, wd)
    np.testing.assert_allclose(losses, torch_losses, rtol=RTOL, atol=ATOL)
    assert state["step"] == steps
    want = state_dict_params(model)
    assert got.keys() == want.keys()
    # The key bias (the middle third of c_attn.bias) has a gradient of exactly zero in exact
    # arithmetic (it shifts all of a query's scores alike); Adam divides its rounding noise, about
    # 1e-17, by sqrt(v) + eps and moves it by up to lr * 1e-9. Hence atol 1e-9 on the parameters.
    for name in want:
        torch.testing.assert_close(got[name], want[name], rtol=1e-9, atol=1e-9)
    assert losses[-1] < losses[0] or wd > 0.2
