"""Lesson 11's reference agrees with GPT-2's own embeddings in `transformers` (float64, no download).

A small GPT2Model is built from a random GPT2Config. Its input vectors are `wte(input_ids) +
wpe(position_ids)`, and a continuation passes `position_ids` that start later; `embed` gets the same
two weight tables and `start`.
"""
from pathlib import Path

import pytest
import torch
from transformers import GPT2Config, GPT2Model

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12
embed = lesson.load(roadmap.load(ROOT), "11").namespace()["embed"]


@pytest.fixture(scope="module")
def gpt2():
    config = GPT2Config(vocab_size=37, n_positions=16, n_embd=12, n_layer=1, n_head=2,
                        bos_token_id=0, eos_token_id=0)
    torch.manual_seed(11)
    model = GPT2Model(config).double().eval()
    with torch.no_grad():   # weights far from GPT-2's tiny initial scale, so differences show
        model.wte.weight.normal_()
        model.wpe.weight.normal_(std=0.5)
    return model


@pytest.mark.parametrize("b, t, start", [(1, 1, 0), (3, 5, 0), (2, 4, 7), (4, 1, 15), (2, 16, 0),
                                         (1, 6, 10)])
def test_embed_matches_gpt2_lookups(gpt2, b, t, start):
    ids = torch.randint(0, 37, (b, t), generator=torch.Generator().manual_seed(b * 100 + t + start))
    positions = torch.arange(start, start + t).expand(b, t)
    with torch.no_grad():
        expected = gpt2.wte(ids) + gpt2.wpe(positions)
        got = embed(ids, gpt2.wte.weight, gpt2.wpe.weight, start)
    assert got.dtype == torch.float64 and got.shape == (b, t, 12)
    torch.testing.assert_close(got, expected, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("start", [0, 5])
def test_embed_is_gpt2s_first_hidden_state(gpt2, start):
    ids = torch.randint(0, 37, (3, 7), generator=torch.Generator().manual_seed(start))
    positions = torch.arange(start, start + 7).expand(3, 7)
    with torch.no_grad():
        hidden = gpt2(input_ids=ids, position_ids=positions, output_hidden_states=True).hidden_states
        got = embed(ids, gpt2.wte.weight, gpt2.wpe.weight, start)
    torch.testing.assert_close(got, hidden[0], rtol=RTOL, atol=ATOL)


def test_a_continuation_is_the_tail_of_the_whole(gpt2):
    ids = torch.randint(0, 37, (2, 9), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        whole = embed(ids, gpt2.wte.weight, gpt2.wpe.weight)
        tail = embed(ids[:, 4:], gpt2.wte.weight, gpt2.wpe.weight, start=4)
    torch.testing.assert_close(tail, whole[:, 4:], rtol=0, atol=0)


@pytest.mark.parametrize("t, start", [(17, 0), (4, 13), (1, 16)])
def test_positions_past_the_table_raise_value_error_where_gpt2_fails_to_index(gpt2, t, start):
    ids = torch.zeros((2, t), dtype=torch.int64)
    with pytest.raises(IndexError):
        gpt2.wpe(torch.arange(start, start + t))
    with pytest.raises(ValueError, match=str(start + t)):
        embed(ids, gpt2.wte.weight, gpt2.wpe.weight, start)
