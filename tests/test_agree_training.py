"""The references of lessons 23 to 27 agree with independent implementations.

23 (batches): the windows equal those of nanoGPT's convention (starts from torch.randint with
`len(data) - block_size` as the bound, targets one token on), drawn from torch's global generator
seeded alike. 24 (initialisation): the parameters have the names, shapes and distributions of a
freshly initialised `transformers.GPT2LMHeadModel`, and that model's loss on them is ours. 25 (the
schedule): equal to `torch.optim.lr_scheduler`'s LinearLR then CosineAnnealingLR up to max_steps,
and to nanoGPT's `get_lr` convention from the end of the warmup on. 26 (clipping): equal to
`torch.nn.utils.clip_grad_norm_`, the returned norm included, for 1-, 2-, 3- and infinity norms
and tiny gradients. 27 (the loop): its losses equal a loop of GPT2LMHeadModel,
`clip_grad_norm_` and `torch.optim.AdamW` on the same batches and rates.
"""
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from grader.lessons import lesson, roadmap

transformers = pytest.importorskip("transformers")

ROOT = Path(__file__).resolve().parent.parent
ROADMAP = roadmap.load(ROOT)


def reference(name):
    return lesson.load(ROADMAP, name).namespace()


@pytest.fixture(scope="module")
def batches():
    return reference("23")


@pytest.fixture(scope="module")
def init():
    return reference("24")


@pytest.fixture(scope="module")
def schedule():
    return reference("25")


@pytest.fixture(scope="module")
def clip():
    return reference("26")


@pytest.fixture(scope="module")
def loop():
    return reference("27")


# --- 23: batches ---

@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 12), st.integers(1, 20), st.integers(1, 40))
def test_batches_are_nanogpts_windows(batches, seed, batch_size, context, spare):
    data = torch.randint(50, (context + spare,), generator=torch.Generator().manual_seed(seed + 1))
    torch.manual_seed(seed)     # nanoGPT draws from the global generator
    ix = torch.randint(len(data) - context, (batch_size,))
    want_x = torch.stack([data[i:i + context] for i in ix])
    want_y = torch.stack([data[i + 1:i + 1 + context] for i in ix])
    x, y = batches["get_batch"](data, batch_size, context, torch.Generator().manual_seed(seed))
    assert torch.equal(x, want_x) and torch.equal(y, want_y)


# --- 24: initialisation ---

def gpt2_model(vocab, width, n_layers, n_positions, n_heads):
    config = transformers.GPT2Config(vocab_size=vocab, n_positions=n_positions, n_embd=width,
                                     n_layer=n_layers, n_head=n_heads, resid_pdrop=0.0,
                                     embd_pdrop=0.0, attn_pdrop=0.0)
    return transformers.GPT2LMHeadModel(config).to(torch.float64).eval()


def own_parameters(model):
    """The model's parameters under their state-dict names, without the tied head and the masks."""
    return {k: v.detach().clone() for k, v in model.state_dict().items()
            if k != "lm_head.weight" and not k.endswith((".attn.bias", ".attn.masked_bias"))}


def test_initialisation_matches_transformers_gpt2(init):
    torch.manual_seed(0)
    model = gpt2_model(300, 96, 3, 64, 4)
    theirs = own_parameters(model)
    ours = init["init_from_seed"](300, 96, 3, 64, 0)
    assert list(ours) == [k for k in init["param_shapes"](300, 96, 3, 64)]
    assert ours.keys() == theirs.keys()
    for name, want in theirs.items():
        got = ours[name]
        assert got.shape == want.shape and got.dtype == torch.float64, name
        if want.std() == 0:      # biases and gains: constants in both
            assert torch.equal(got, want), name
        else:                    # drawn: the same distribution (thousands of draws each)
            assert abs(got.std() / want.std() - 1) < 0.06, (name, got.std(), want.std())
            assert abs(got.mean()) < 0.1 * want.std() and abs(want.mean()) < 0.1 * want.std(), name


def test_the_loss_at_init_is_transformers_loss_on_the_same_parameters(init):
    model = gpt2_model(65, 32, 2, 16, 4)
    params = init["init_from_seed"](65, 32, 2, 16, 0)
    model.load_state_dict({**params, "lm_head.weight": params["transformer.wte.weight"]}, strict=False)
    g = torch.Generator().manual_seed(1)
    x, y = torch.randint(65, (4, 16), generator=g), torch.randint(65, (4, 16), generator=g)
    with torch.no_grad():
        want = torch.nn.functional.cross_entropy(model(x).logits.reshape(-1, 65), y.reshape(-1))
    report = init["init_report"](params, x, y, 4)
    assert report["loss"] == pytest.approx(want.item(), rel=1e-12)
    assert report["uniform"] == pytest.approx(math.log(65), rel=1e-15)
    assert abs(report["gap"]) < 0.05


# --- 25: the schedule ---

def torch_schedule(max_lr, min_lr, warmup, max_steps, n):
    """The rates torch.optim.lr_scheduler gives steps 0..n-1: a linear warmup from max_lr / warmup
    to max_lr over the warmup steps, then a cosine annealing to min_lr at max_steps."""
    param = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([param], lr=max_lr)
    sched = torch.optim.lr_scheduler.SequentialLR(opt, [
        torch.optim.lr_scheduler.LinearLR(opt, start_factor=1 / warmup, total_iters=warmup - 1),
        torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max_steps - warmup, eta_min=min_lr)],
        milestones=[warmup])
    rates = []
    for _ in range(n):
        rates.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return rates


def nanogpt_get_lr(it, learning_rate, min_lr, warmup_iters, lr_decay_iters):
    """nanoGPT's convention, as its train.py states it: a warmup of learning_rate * (it + 1) /
    (warmup_iters + 1), then the cosine from warmup_iters to lr_decay_iters, then min_lr."""
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (learning_rate - min_lr)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30), st.integers(1, 60), st.floats(1e-5, 1e-1), st.floats(0.0, 1.0))
def test_the_schedule_equals_torchs_schedulers(schedule, warmup, decay, max_lr, floor):
    max_steps, min_lr = warmup + decay, max_lr * floor
    want = torch_schedule(max_lr, min_lr, warmup, max_steps, max_steps + 1)
    got = schedule["schedule"](max_steps + 1, max_lr, min_lr, warmup, max_steps)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), st.integers(1, 60), st.floats(1e-5, 1e-1), st.floats(0.0, 1.0))
def test_the_schedule_and_nanogpts_differ_only_in_the_warmup(schedule, warmup, decay, max_lr, floor):
    max_steps, min_lr = warmup + decay, max_lr * floor
    for step in range(max_steps + 10):
        ours = schedule["lr_at"](step, max_lr, min_lr, warmup, max_steps)
        theirs = nanogpt_get_lr(step, max_lr, min_lr, warmup, max_steps)
        if step < warmup:      # ours reaches max_lr at the last warmup step; nanoGPT's, one later
            assert ours == pytest.approx(theirs * (warmup + 1) / warmup, rel=1e-12)
        else:
            assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-18)


# --- 26: clipping ---

SHAPES = st.lists(st.lists(st.integers(1, 6), min_size=0, max_size=3), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(SHAPES, st.sampled_from([1.0, 2.0, 3.0, math.inf]), st.floats(1e-4, 10.0),
       st.floats(-6, 2), st.integers(0, 2**31))
def test_clipping_equals_torchs_clip_grad_norm(clip, shapes, norm_type, max_norm, log_scale, seed):
    g = torch.Generator().manual_seed(seed)
    grads = {f"p{i}": torch.randn(tuple(s), generator=g, dtype=torch.float64) * 10 ** log_scale
             for i, s in enumerate(shapes)}
    params = [torch.nn.Parameter(torch.zeros_like(t)) for t in grads.values()]
    for p, t in zip(params, grads.values()):
        p.grad = t.clone()
    want_norm = torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type=norm_type)
    clipped, norm = clip["clip_grad_norm"](grads, max_norm, norm_type)
    torch.testing.assert_close(norm, want_norm, rtol=1e-12, atol=0)
    for p, name in zip(params, grads):
        torch.testing.assert_close(clipped[name], p.grad, rtol=1e-12, atol=1e-300)


# --- 27: the loop ---

@pytest.mark.parametrize("steps, n_layers, max_norm", [(8, 1, 1.0), (6, 2, 0.05)])
def test_the_loop_equals_transformers_with_torch_optim(loop, steps, n_layers, max_norm):
    vocab, width, context, heads = 13, 12, 6, 3
    torch.manual_seed(3)
    model = gpt2_model(vocab, width, n_layers, context, heads)
    model.train()     # dropout is 0: the same as eval mode
    params = own_parameters(model)
    data = torch.randint(vocab, (90,), generator=torch.Generator().manual_seed(4))
    config = dict(n_heads=heads, batch_size=4, context=context, max_lr=2e-2, min_lr=2e-3,
                  warmup_steps=3, max_steps=steps, max_norm=max_norm, weight_decay=0.1,
                  dropout=0.0, eval_every=steps, eval_batches=2, eval_seed=0)
    history = loop["run_training"](params, data[:70], data[70:], config, steps, 5, 0)

    opt = torch.optim.AdamW(model.parameters(), lr=config["max_lr"], weight_decay=0.1)
    rng, losses, norms = torch.Generator().manual_seed(5), [], []
    for step in range(steps):
        ix = torch.randint(len(data[:70]) - context, (4,), generator=rng)
        x = torch.stack([data[i:i + context] for i in ix])
        y = torch.stack([data[i + 1:i + 1 + context] for i in ix])
        for group in opt.param_groups:
            group["lr"] = loop["lr_at"](step, 2e-2, 2e-3, 3, steps)
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(x).logits.reshape(-1, vocab), y.reshape(-1))
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm).item())
        opt.step()
        losses.append(loss.item())
    np.testing.assert_allclose([r["loss"] for r in history["steps"]], losses, rtol=1e-9)
    np.testing.assert_allclose([r["grad_norm"] for r in history["steps"]], norms, rtol=1e-9)
