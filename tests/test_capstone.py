"""The capstone: its scores keep the language's own rules, every position it reads at is trained,
and `make capstone` runs a fixed number of steps with a progress bar, says plainly when a time
limit left the model under-trained, and ends with one machine-readable line."""
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

ROOT = Path(__file__).resolve().parent.parent
CAPSTONE = ROOT / "solutions" / "capstone"
sys.path.insert(0, str(CAPSTONE))
import language  # noqa: E402
import llama  # noqa: E402
import pieces as lessons  # noqa: E402

SUMMARY = re.compile(r"^capstone: (?:model llama, )?steps (\d+), train loss ([\d.]+|nan), val loss ([\d.]+|nan), "
                     r"perplexity ([\d.]+|nan), form (\d+)%, two-people (\d+)%, chain (\d+)%$", re.M)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 200))
def test_the_training_text_keeps_every_rule(seed, n_sentences):
    kept = language.rules_kept(language.make_text(n_sentences, seed))
    assert kept["sentences"] == n_sentences - 1   # the first may have begun mid-sentence
    assert (kept["form"], kept["two people"], kept["chain"]) == (1.0, 1.0, 1.0)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 30))
def test_each_broken_rule_lowers_its_own_score(seed, at):
    words = language.make_text(40, seed).split(" ")     # name verb name. name verb name. ...
    subject, obj = 3 * at, 3 * at + 2                    # one sentence in the middle
    bad_form = words.copy()
    bad_form[subject + 1] = "eats"
    kept = language.rules_kept(" ".join(bad_form))
    assert kept["form"] < 1 and kept["chain"] < 1

    two = words.copy()
    two[obj], two[obj + 1] = words[subject] + ".", words[subject]    # "bo sees bo. bo ..."
    kept = language.rules_kept(" ".join(two))
    assert kept["form"] == 1 and kept["two people"] < 1 and kept["chain"] == 1

    chain = words.copy()
    chain[subject] = next(n for n in language.NAMES if n not in (words[subject], words[obj][:-1]))
    kept = language.rules_kept(" ".join(chain))
    assert kept["form"] == 1 and kept["two people"] == 1 and kept["chain"] < 1


def test_the_floor_is_the_entropy_of_the_text():
    """Each sentence carries ln 5 + ln 4 nats; the floor is that over its characters."""
    text = language.make_text(20_000, seed=3)
    per_character = 20_000 * (math.log(5) + math.log(4)) / (len(text) + 1)
    assert abs(language.floor_nats() - per_character) < 0.002


def one_step_gradient(get_batch):
    """The gradient of the position table after one capstone training step (references), with
    `get_batch` making the batches."""
    pieces = lessons.load(ROOT, "solutions")
    pieces.replace(get_batch=get_batch)
    text = language.make_text(300)
    vocab = language.Characters(text)
    data = torch.tensor(vocab.encode(text))
    params = pieces.gpt2_init(len(vocab), 16, 1, 12, torch.Generator().manual_seed(0))
    config = dict(n_heads=2, batch_size=8, context=12, max_lr=1e-3, min_lr=1e-4, warmup_steps=0,
                  max_steps=5, max_norm=1.0, weight_decay=0.01, dropout=0.0, eval_every=5,
                  eval_batches=1, eval_seed=0)
    run = pieces.loop.new_run(params, 0)
    pieces.loop.train_step(run, data, config)
    return run["params"]["transformer.wpe.weight"].grad


def test_every_position_the_model_reads_at_is_trained():
    grad = one_step_gradient(lessons.lesson_module(ROOT, "solutions", "23-batches")[0].get_batch)
    assert (grad.abs().sum(dim=1) > 0).all(), grad.abs().sum(dim=1)


def test_windows_of_context_tokens_leave_the_last_position_untrained():
    """The capstone's old windows (context tokens, shifted inside the window): the last row of the
    position table gets no gradient at all, which is what the test above rules out."""
    def old_windows(data, batch_size, context, rng):
        starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
        windows = torch.stack([data[s:s + context] for s in starts.tolist()])
        return windows[:, :-1], windows[:, 1:]
    grad = one_step_gradient(old_windows)
    assert grad[-1].abs().sum() == 0 and (grad[:-1].abs().sum(dim=1) > 0).all()


def run_capstone(tmp_path, **settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBOOK_CAPSTONE_")}
    env = {**env, "WORKBOOK_CAPSTONE_CODE": "solutions", "MPLBACKEND": "Agg",
           "WORKBOOK_CAPSTONE_PLOT": str(tmp_path / "loss.png"),
           "WORKBOOK_CAPSTONE_CHECKPOINT": str(tmp_path / "checkpoint.pt"),
           **{f"WORKBOOK_CAPSTONE_{k}": str(v) for k, v in settings.items()}}
    run = subprocess.run([sys.executable, str(CAPSTONE / "capstone.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout


@pytest.mark.slow
def test_the_capstone_trains_a_fixed_number_of_steps_and_says_how_it_went(tmp_path):
    out = run_capstone(tmp_path, STEPS=50)
    assert out.count("<- the reference (lesson") == (len(lessons.PIECES) + len(lessons.LOOP_FUNCTIONS)
                                                     + len(lessons.TOKENIZER_PIECES["chars"])
                                                     + len(lessons.MODEL_PIECES["gpt2"]))
    assert "characters (lesson 28): V = " in out
    assert re.search(r"\] +50/50 steps  loss [\d.]+  \d+:\d\d so far, about 0:00 left", out), out
    assert re.search(r"\] +25/50 steps  loss [\d.]+  \d+:\d\d so far, about \d+:\d\d left", out), out
    assert "UNDER-TRAINED" not in out
    steps, train, val, *_ = SUMMARY.search(out).groups()
    assert int(steps) == 50 and float(val) < 0.85 * math.log(17), out
    assert out.rstrip().splitlines()[-1].startswith("capstone: steps 50, ")
    assert (tmp_path / "loss.png").stat().st_size > 1000 and (tmp_path / "checkpoint.pt").is_file()
    assert "Before training, greedy" in out and "After training, sampled" in out


@pytest.mark.slow
def test_a_time_limit_that_is_hit_says_the_model_is_under_trained(tmp_path):
    out = run_capstone(tmp_path, STEPS=100_000, SECONDS=5)
    assert "UNDER-TRAINED" in out and "WORKBOOK_CAPSTONE_SECONDS" in out
    steps = int(SUMMARY.search(out).group(1))
    assert steps < 100_000 and re.search(rf"Stopped after {steps} of 100000 steps", out)
    assert "After training, greedy" in out      # the samples are still written


@pytest.mark.parametrize("name, value", [("STEPS", "many"), ("STEPS", "0"), ("SECONDS", "-3"),
                                         ("CODE", "mine"), ("PIECES", "all"), ("TOKENIZER", "words"),
                                         ("MERGES", "0"), ("MODEL", "mamba")])
def test_a_bad_setting_is_named_with_a_clear_message(tmp_path, name, value):
    env = {**os.environ, f"WORKBOOK_CAPSTONE_{name}": value}
    run = subprocess.run([sys.executable, str(CAPSTONE / "capstone.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode != 0 and f"WORKBOOK_CAPSTONE_{name}" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.slow
def test_the_capstone_trains_on_the_byte_level_bpe_of_lesson_29(tmp_path):
    out = run_capstone(tmp_path, STEPS=30, TOKENIZER="bpe", MERGES=20)
    assert re.search(r"byte-level BPE \(lesson 29\): 20 merges, V = 277 ", out), out
    assert "char_vocab" not in out and out.count("(lesson 29-bpe)") == 3
    per_token = float(re.search(r"floor: ([\d.]+) nats per token", out).group(1))
    assert per_token > language.floor_nats()          # fewer tokens than characters carry the text
    assert int(SUMMARY.search(out).group(1)) == 30


@pytest.mark.parametrize("lesson_id", ["28", "29"])
def test_the_tiny_inputs_tell_every_known_tokenizer_mistake_from_the_reference(lesson_id):
    """The capstone would train with a known mistake of lesson 28 or 29 only if its tiny input
    missed it: each known mistake of a tokenizer piece answers differently there."""
    from grader.lessons import lesson, roadmap
    lsn = lesson.load(roadmap.load(ROOT), lesson_id)
    reference = lsn.namespace()
    names = {n for kind in lessons.TOKENIZER_PIECES.values() for n in kind}
    tried = 0
    for m, ns in lsn.mistakes:
        for name in set(m.functions) & names:
            why = lessons.probe(lambda: lessons.try_on_tiny_input(name, ns[name]),
                                lambda: lessons.try_on_tiny_input(name, reference[name]))
            assert why is not None, f"{m.id}: {name} answers as the reference does on the tiny input"
            tried += 1
    assert tried >= 8


@pytest.mark.slow
def test_the_capstone_trains_lesson_30s_llama_style_model(tmp_path):
    out = run_capstone(tmp_path, STEPS=30, MODEL="llama")
    assert "llama_forward     <- the reference (lesson 30-llama-forward)" in out
    assert "gpt_forward" not in out and "gpt2_init" not in out
    assert re.search(r"The LLaMA-style model: [\d,]+ parameters in 21 tensors", out), out
    assert out.rstrip().splitlines()[-1].startswith("capstone: model llama, steps 30, ")
    assert int(SUMMARY.search(out).group(1)) == 30


def test_one_llama_training_step_reaches_every_parameter():
    """The capstone's LLaMA-style model, wired into lesson 27's loop: its loss at init is close to
    ln V, and one step gives every tensor a gradient (the untied head and every gain included)."""
    pieces = lessons.load(ROOT, "solutions", model="llama")
    text = language.make_text(300)
    vocab = language.Characters(text)
    data = torch.tensor(vocab.encode(text))
    params = llama.init(len(vocab), 16, 2, 4, llama.KV_HEADS, torch.Generator().manual_seed(0))
    config = dict(n_heads=4, batch_size=8, context=12, max_lr=1e-3, min_lr=1e-4, warmup_steps=0,
                  max_steps=5, max_norm=1.0, weight_decay=0.01, dropout=0.0, eval_every=5,
                  eval_batches=1, eval_seed=0)
    x, y = pieces.get_batch(data, 8, 12, torch.Generator().manual_seed(0))
    assert abs(pieces.init_report(params, x, y, 4)["gap"]) < 0.1
    run = pieces.loop.new_run(params, 0)
    pieces.loop.train_step(run, data, config)
    assert set(run["params"]) == set(params)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in run["params"].values())


def test_the_tiny_input_tells_lesson_30s_known_mistakes_from_the_reference():
    """The capstone would train a LLaMA-style model with a known mistake of lesson 30 only if its
    tiny input missed it. It calls the model with RoPE's default theta, so forgetting to pass theta
    on is the one mistake that changes nothing there."""
    from grader.lessons import lesson, roadmap
    lsn = lesson.load(roadmap.load(ROOT), "30")
    reference = lsn.namespace()["llama_forward"]
    harmless = {"theta-not-passed"}
    for m, ns in lsn.mistakes:
        why = lessons.probe(lambda: lessons.try_on_tiny_input("llama_forward", ns["llama_forward"]),
                            lambda: lessons.try_on_tiny_input("llama_forward", reference))
        assert (why is None) == (m.id in harmless), f"{m.id}: {why}"
    assert len(lsn.mistakes) >= 20
