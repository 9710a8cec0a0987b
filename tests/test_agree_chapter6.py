"""The references of lessons 15, 16 and 17 agree with Hugging Face `transformers` and PyTorch.

15 (RoPE, rotate-half) against LlamaRotaryEmbedding + apply_rotary_pos_emb; 16 (multi-head attention
with RoPE) against LlamaAttention with the weights copied over; 17 (grouped-query attention) against
LlamaAttention with fewer key/value heads, and against F.scaled_dot_product_attention with
enable_gqa=True.

`transformers` computes the rotary angles, cosines and sines in float32 whatever the model's dtype
(`position_ids.float()`, `inv_freq` built with dtype=torch.float), and its eager attention takes
the softmax in float32. Those casts limit any comparison to about 1e-6. So each comparison runs
twice: with the library exactly as it is, at a float32 tolerance, and with those float32 casts
redirected to float64 inside `modeling_llama` only (llama_float64.py), at 1e-10.
"""
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from transformers import LlamaConfig
from transformers.models.llama import modeling_llama

from grader.lessons import lesson, roadmap
from llama_float64 import float64_casts

ROOT = Path(__file__).resolve().parent.parent
RTOL, ATOL = 1e-10, 1e-12            # float64 throughout
LOOSE_RTOL, LOOSE_ATOL = 1e-4, 1e-5  # the library as it is, with its float32 angles and softmax


def reference(name):
    return lesson.load(roadmap.load(ROOT), name).namespace()


@pytest.fixture(scope="module")
def rope():
    return reference("15")["rope"]


@pytest.fixture(scope="module")
def mha_rope_forward():
    return reference("16")["mha_rope_forward"]


@pytest.fixture(scope="module")
def lesson17():
    return reference("17")


def config(d, n_heads, n_kv_heads, theta):
    return LlamaConfig(hidden_size=d, num_attention_heads=n_heads, num_key_value_heads=n_kv_heads,
                       head_dim=d // n_heads, intermediate_size=2 * d, attention_bias=False,
                       attn_implementation="eager",
                       rope_parameters={"rope_type": "default", "rope_theta": theta})


def hf_rope(x, positions, theta):
    """LlamaRotaryEmbedding's cos and sin, applied by apply_rotary_pos_emb, to x of shape (B, H, T, d)."""
    b, h, t, d = x.shape
    rotary = modeling_llama.LlamaRotaryEmbedding(config(d * 2, 2, 2, theta))  # head_dim = d
    xt = torch.from_numpy(x)
    pos = torch.from_numpy(np.broadcast_to(positions, (b, t)).copy())
    cos, sin = rotary(xt, pos)
    q, k = modeling_llama.apply_rotary_pos_emb(xt, xt.clone(), cos, sin)
    assert torch.equal(q, k)
    return q.numpy()


def hf_attention(x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads, positions, theta):
    """LlamaAttention (eager, no bias) with the lesson's weights, x of shape (B, T, D), causal."""
    b, t, d = x.shape
    cfg = config(d, n_heads, n_kv_heads, theta)
    layer = modeling_llama.LlamaAttention(cfg, layer_idx=0).to(torch.float64).eval()
    rotary = modeling_llama.LlamaRotaryEmbedding(cfg)
    with torch.no_grad():
        # nn.Linear stores its weight as (out, in) and computes x @ W.T; the lessons compute x @ W
        for proj, W in ((layer.q_proj, Wq), (layer.k_proj, Wk), (layer.v_proj, Wv), (layer.o_proj, Wo)):
            proj.weight.copy_(torch.from_numpy(W.T))
        xt = torch.from_numpy(x)
        pos = torch.from_numpy(np.broadcast_to(positions, (b, t)).copy())
        cos, sin = rotary(xt, pos)
        hidden = ~torch.tril(torch.ones(t, t, dtype=torch.bool))
        mask = torch.zeros(b, 1, t, t, dtype=torch.float64).masked_fill(hidden, float("-inf"))
        out, _ = layer(xt, position_embeddings=(cos, sin), attention_mask=mask)
    return out.numpy()


def check(got, run, *args):
    """`got` equals the library's answer to 1e-10 in float64, and to float32 precision as it is."""
    np.testing.assert_allclose(got, run(*args), rtol=LOOSE_RTOL, atol=LOOSE_ATOL)
    with float64_casts():
        np.testing.assert_allclose(got, run(*args), rtol=RTOL, atol=ATOL)


# --- lesson 15: rope ---

@pytest.mark.parametrize("shape, positions, theta", [
    ((1, 1, 5, 8), np.arange(5), 10000.0),
    ((2, 3, 6, 4), np.arange(7, 13), 10000.0),
    ((3, 2, 4, 10), np.array([3, 0, 17, 9]), 500.0),
    ((1, 4, 7, 2), np.arange(40, 47), 10000.0),
    ((2, 1, 9, 16), np.arange(9) * 5, 1e6),
])
def test_rope_matches_llama_rotary_embedding(rope, shape, positions, theta):
    rng = np.random.default_rng(sum(shape) + len(positions))
    x = rng.normal(size=shape)
    check(rope(x, positions, theta), hf_rope, x, positions, theta)


def test_rope_frequencies_match_llama(rope):
    """inv_freq of LlamaRotaryEmbedding is the lesson's theta ** (-2i / d)."""
    d, theta = 12, 10000.0
    with float64_casts():
        inv_freq = modeling_llama.LlamaRotaryEmbedding(config(2 * d, 2, 2, theta)).inv_freq.numpy()
    np.testing.assert_allclose(inv_freq, theta ** (-2.0 * np.arange(d // 2) / d), rtol=RTOL)


def test_rope_is_not_interleaved(rope):
    """Guard: rotate-half and the interleaved convention really differ, so the tests above can fail."""
    rng = np.random.default_rng(5)
    x, positions = rng.normal(size=(1, 1, 4, 8)), np.arange(1, 5)
    perm = np.concatenate([np.arange(0, 8, 2), np.arange(1, 8, 2)])   # interleaved -> halves
    interleaved = rope(x[..., perm], positions)[..., np.argsort(perm)]
    assert not np.allclose(interleaved, rope(x, positions), rtol=1e-6)
    with float64_casts():
        np.testing.assert_allclose(rope(x, positions), hf_rope(x, positions, 10000.0), rtol=RTOL,
                                   atol=ATOL)


# --- lesson 16: mha_rope_forward ---

@pytest.mark.parametrize("shape, n_heads, positions, theta", [
    ((1, 5, 12), 2, None, 10000.0),
    ((2, 6, 16), 4, np.arange(10, 16), 10000.0),
    ((3, 4, 8), 1, np.array([0, 2, 3, 9]), 500.0),
    ((2, 7, 24), 3, None, 1e6),
])
def test_mha_rope_matches_llama_attention(mha_rope_forward, shape, n_heads, positions, theta):
    rng = np.random.default_rng(sum(shape) * 7 + n_heads)
    d, t = shape[-1], shape[-2]
    x = rng.normal(size=shape)
    W = [rng.normal(scale=d ** -0.5, size=(d, d)) for _ in range(4)]
    got = mha_rope_forward(x, *W, n_heads, positions=positions, theta=theta)
    pos = np.arange(t) if positions is None else positions
    check(got, hf_attention, x, *W, n_heads, n_heads, pos, theta)


# --- lesson 17: gqa_forward ---

def gqa_inputs(rng, shape, n_heads, n_kv_heads):
    d = shape[-1]
    kv = n_kv_heads * (d // n_heads)
    x = rng.normal(size=shape)
    Wq, Wo = (rng.normal(scale=d ** -0.5, size=(d, d)) for _ in range(2))
    Wk, Wv = (rng.normal(scale=d ** -0.5, size=(d, kv)) for _ in range(2))
    return x, Wq, Wk, Wv, Wo


# (shape, n_heads, n_kv_heads), head sizes even so that LlamaAttention can apply its RoPE
GQA_SHAPES = [((2, 5, 12), 6, 2), ((1, 7, 24), 6, 3), ((3, 4, 16), 8, 2), ((2, 6, 32), 8, 4),
              ((2, 5, 16), 4, 1), ((2, 5, 12), 3, 3)]


@pytest.mark.parametrize("shape, n_heads, n_kv_heads", GQA_SHAPES)
def test_gqa_matches_llama_attention(lesson17, shape, n_heads, n_kv_heads):
    """LlamaAttention rotates queries and keys; at position 0 for every token nothing turns."""
    rng = np.random.default_rng(sum(shape) + 10 * n_heads + n_kv_heads)
    x, Wq, Wk, Wv, Wo = gqa_inputs(rng, shape, n_heads, n_kv_heads)
    got = lesson17["gqa_forward"](x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads)
    still = np.zeros(shape[-2], dtype=np.int64)   # every token at position 0: RoPE is the identity
    check(got, hf_attention, x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads, still, 10000.0)


@pytest.mark.parametrize("shape, n_heads, n_kv_heads", GQA_SHAPES)
def test_gqa_matches_sdpa_enable_gqa(lesson17, shape, n_heads, n_kv_heads):
    rng = np.random.default_rng(sum(shape) * 3 + n_heads + n_kv_heads)
    x, Wq, Wk, Wv, Wo = gqa_inputs(rng, shape, n_heads, n_kv_heads)
    got = lesson17["gqa_forward"](x, Wq, Wk, Wv, Wo, n_heads, n_kv_heads)
    b, t, d = shape
    hd = d // n_heads
    xt = torch.from_numpy(x)
    heads = lambda W, h: (xt @ torch.from_numpy(W)).view(b, t, h, hd).transpose(1, 2)
    out = F.scaled_dot_product_attention(heads(Wq, n_heads), heads(Wk, n_kv_heads),
                                         heads(Wv, n_kv_heads), is_causal=True, enable_gqa=True)
    want = out.transpose(1, 2).reshape(b, t, d) @ torch.from_numpy(Wo)
    np.testing.assert_allclose(got, want.numpy(), rtol=RTOL, atol=ATOL)


def test_gqa_with_rope_matches_llama_attention(lesson17):
    """GQA's head sharing composed with lesson 15's rope equals LlamaAttention at real positions."""
    ns = lesson17
    rope = reference("15")["rope"]
    rng = np.random.default_rng(11)
    n_heads, n_kv, positions = 6, 2, np.arange(3, 10)
    x, Wq, Wk, Wv, Wo = gqa_inputs(rng, (2, 7, 24), n_heads, n_kv)
    q = rope(ns["split_heads"](x @ Wq, n_heads), positions)
    k = rope(ns["split_heads"](x @ Wk, n_kv), positions)
    v = ns["split_heads"](x @ Wv, n_kv)
    g = n_heads // n_kv
    heads = ns["causal_attention"](q, np.repeat(k, g, axis=-3), np.repeat(v, g, axis=-3))
    got = ns["merge_heads"](heads) @ Wo
    check(got, hf_attention, x, Wq, Wk, Wv, Wo, n_heads, n_kv, positions, 10000.0)


def test_gqa_equals_mha_when_every_head_has_its_own(lesson17):
    rng = np.random.default_rng(3)
    x, Wq, Wk, Wv, Wo = gqa_inputs(rng, (2, 6, 12), 3, 3)
    np.testing.assert_allclose(lesson17["gqa_forward"](x, Wq, Wk, Wv, Wo, 3, 3),
                               reference("08")["mha_forward"](x, Wq, Wk, Wv, Wo, 3),
                               rtol=RTOL, atol=ATOL)


def test_gqa_tiling_would_be_caught(lesson17):
    """Guard: the library's grouping is np.repeat's, and np.tile's gives different numbers."""
    ns = lesson17
    rng = np.random.default_rng(8)
    n_heads, n_kv = 6, 3
    x, Wq, Wk, Wv, Wo = gqa_inputs(rng, (2, 5, 12), n_heads, n_kv)
    q = ns["split_heads"](x @ Wq, n_heads)
    k, v = ns["split_heads"](x @ Wk, n_kv), ns["split_heads"](x @ Wv, n_kv)
    tiled = ns["merge_heads"](ns["causal_attention"](q, np.tile(k, (2, 1, 1)),
                                                     np.tile(v, (2, 1, 1)))) @ Wo
    with float64_casts():
        want = hf_attention(x, Wq, Wk, Wv, Wo, n_heads, n_kv, np.zeros(5, dtype=np.int64), 10000.0)
    assert not np.allclose(tiled, want, rtol=1e-6)
    np.testing.assert_allclose(ns["gqa_forward"](x, Wq, Wk, Wv, Wo, n_heads, n_kv), want,
                               rtol=RTOL, atol=ATOL)
