"""Training that explains itself: the training doctor (lesson 27's health.py, run by the capstone's
doctor.py) names each way a run goes wrong when one piece is deliberately broken, with its
evidence and the lessons to revisit, and says nothing about a run of the references."""
import sys
import types
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "solutions" / "capstone"))
from grader.judge.trusted import one_torch_thread  # noqa: E402
import doctor  # noqa: E402
import language  # noqa: E402
import pieces as lessons  # noqa: E402
import training  # noqa: E402

HEALTH = doctor.health_module(ROOT)
CONFIG = dict(n_heads=2, batch_size=16, context=40, max_lr=1e-2, min_lr=1e-3, warmup_steps=10,
              max_steps=120, max_norm=1.0, weight_decay=0.01, dropout=0.0, eval_every=40,
              eval_batches=2, eval_seed=0)


@pytest.fixture(autouse=True)
def one_thread():
    """Small models train fastest on one thread, and a busy machine makes a second one wait."""
    with one_torch_thread():
        yield


def references(**broken):
    """The capstone's pieces, all references, with the named ones replaced."""
    pieces = lessons.load(ROOT, "solutions")
    pieces.replace(**broken)
    return pieces


def examine(pieces, steps=120, n_sentences=600):
    """The capstone's checkup and a short training run of a small GPT with `pieces`; returns
    (checkup, history, findings)."""
    text = language.make_text(n_sentences)
    vocab = language.Characters(text)
    data = torch.tensor(vocab.encode(text))
    train_data, val_data = pieces.split_data(data, 0.9)
    params = {k: p.float() for k, p in pieces.gpt2_init(
        len(vocab), 32, 1, CONFIG["context"], torch.Generator().manual_seed(0)).items()}
    checkup = doctor.examine(HEALTH, pieces, pieces.loop, params, train_data, CONFIG, len(vocab))
    run = pieces.loop.new_run(params, 1)
    history, _ = training.train_in_stages(pieces.loop, run, train_data, val_data, CONFIG, steps)
    found = doctor.findings(HEALTH, history, checkup, len(vocab), language.floor_nats(),
                            CONFIG["max_norm"])
    return checkup, history, found


def problems(found):
    return [f.problem for f in found]


def reference(lesson, name):
    return getattr(lessons.lesson_module(ROOT, "solutions", lesson)[0], name)


@pytest.mark.slow
def test_a_run_of_the_references_is_healthy():
    checkup, history, found = examine(references())
    assert found == [] and checkup.leaks == [] and checkup.clipping is None, found


@pytest.mark.slow
def test_weights_drawn_too_large_show_at_step_zero():
    init = reference("24-init", "gpt2_init")
    large = lambda v, w, n, p, rng, std=0.02: init(v, w, n, p, rng, 1.0)
    _, history, found = examine(references(gpt2_init=large), steps=40)
    first = next(f for f in found if f.problem == "the loss at step 0 is far from ln V")
    assert f"{history['steps'][0]['loss']:.3f}" in first.evidence and "lesson 24" in first.revisit


@pytest.mark.slow
def test_a_softmax_over_the_positions_shows_at_step_zero():
    def loss_over_positions(logits, ids):
        scores = torch.log_softmax(logits[:, :-1], dim=1)       # over the positions, not the tokens
        return -scores.gather(-1, ids[:, 1:, None]).mean()
    _, history, found = examine(references(lm_loss=loss_over_positions), steps=40)
    assert "the loss at step 0 is far from ln V" in problems(found)
    assert abs(history["steps"][0]["loss"] - torch.log(torch.tensor(40.0)).item()) < 0.1


@pytest.mark.slow
def test_a_step_that_never_reaches_the_parameters_cannot_learn_one_batch():
    step = reference("27-training-loop", "train_step")

    def step_without_update(run, data, config):
        before = {k: p.detach().clone() for k, p in run["params"].items()}
        record = step(run, data, config)
        with torch.no_grad():
            for k, p in run["params"].items():
                p.copy_(before[k])
        return record
    checkup, _, found = examine(references(train_step=step_without_update), steps=40)
    finding = next(f for f in found if f.problem == "the model cannot learn even a single batch")
    assert f"{checkup.overfit[0]:.3f}" in finding.evidence and "lesson 27" in finding.revisit


@pytest.mark.slow
def test_a_model_without_its_causal_mask_reads_the_future():
    lesson12 = lessons.lesson_module(ROOT, "solutions", "12-gpt-forward")[0]   # a fresh copy
    unmasked = types.SimpleNamespace(**{k: getattr(F, k) for k in dir(F) if not k.startswith("__")})
    unmasked.scaled_dot_product_attention = (
        lambda q, k, v, is_causal=False, **kw: F.scaled_dot_product_attention(q, k, v, **kw))
    lesson12.F = unmasked
    checkup, _, found = examine(references(gpt_forward=lesson12.gpt_forward))
    assert any("earlier positions" in leak for leak in checkup.leaks)
    finding = next(f for f in found if f.problem == "the model sees the tokens it must predict")
    assert "earlier positions" in finding.evidence and "causal mask" in finding.revisit


@pytest.mark.slow
def test_targets_that_are_the_inputs_read_the_answer():
    get_batch = reference("23-batches", "get_batch")
    unshifted = lambda data, b, t, rng: (lambda x, y: (x, x.clone()))(*get_batch(data, b, t, rng))
    checkup, _, found = examine(references(get_batch=unshifted))
    assert any("equal the inputs" in leak for leak in checkup.leaks)
    finding = next(f for f in found if f.problem == "the model sees the tokens it must predict")
    assert "equal the inputs" in finding.evidence
    assert "the training loss reached" in finding.evidence


@pytest.mark.slow
def test_a_learning_rate_far_too_high_diverges():
    _, _, found = examine(references(lr_at=lambda step, *schedule: 5.0), steps=80)
    finding = next(f for f in found if f.problem == "the training diverged")
    assert "peak learning rate of 5" in finding.evidence and "lesson 25" in finding.revisit


def test_clipping_that_does_nothing_is_caught_by_its_probe():
    assert HEALTH.clipping_gap(reference("26-grad-clip", "clip_grad_norm"), 1.0) is None
    assert "leaves a gradient of norm" in HEALTH.clipping_gap(lambda g, m: (g, None), 1.0)


@pytest.mark.slow
def test_validation_on_another_text_shows_as_a_gap():
    split = reference("23-batches", "split_data")
    other = lambda data, f=0.9: (split(data, f)[0], split(data, f)[1].flip(0))   # a reversed text
    _, history, found = examine(references(split_data=other))
    finding = next(f for f in found if f.problem == "the validation loss is far above the training loss")
    assert f"{history['evals'][-1]['val_loss']:.3f}" in finding.evidence
