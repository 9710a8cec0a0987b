"""Lesson 30's reference equals a LLaMA model as the transformers library implements it.

A `LlamaForCausalLM` is built offline from a small random `LlamaConfig` (no biases, an untied head,
float64, eval mode), its parameters are drawn at random (the library's own initialisation has unit
gains, which would hide mistakes in the norms), and its state dict is copied into the lesson's
layout: every `nn.Linear` weight is stored (out, in) and the lesson multiplies on the right, so each
is transposed; `lm_head.weight` (V, D) becomes `head` (D, V). No column is permuted: the library's
`rotate_half` pairs column i of a head with column i + hd/2, the convention of lessons 15 and 30
(Meta's original code pairs 2i with 2i + 1, and converting its checkpoints permutes Wq and Wk).
The logits must agree to 1e-10 in float64 (llama_float64.py: the library's float32 casts of RoPE,
RMSNorm and softmax redirected to float64) and to float32 precision with the library as it is, with
its eager and its SDPA attention. Every case of the lesson is also checked against the library, and
the lesson's known mistakes (eps moved, key/value heads shared round-robin, ...) must disagree.
"""
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st
from transformers import LlamaConfig, LlamaForCausalLM

from grader.lessons import lesson, roadmap
from llama_float64 import float64_casts

ROOT = Path(__file__).resolve().parent.parent
TIGHT = dict(rtol=1e-10, atol=1e-10)
LOOSE = dict(rtol=1e-4, atol=1e-5)      # the library as it is: float32 angles, norms and softmax
APART = dict(rtol=1e-8, atol=1e-8)      # a hundred times TIGHT: how far a known mistake must miss
LESSON = lesson.load(roadmap.load(ROOT), "30")
llama_forward = LESSON.namespace()["llama_forward"]
# The lesson's name for each library name, after "model.layers.{i}."
BLOCK_NAMES = {"input_layernorm": "norm1", "self_attn.q_proj": "Wq", "self_attn.k_proj": "Wk",
               "self_attn.v_proj": "Wv", "self_attn.o_proj": "Wo",
               "post_attention_layernorm": "norm2", "mlp.gate_proj": "W1", "mlp.up_proj": "W3",
               "mlp.down_proj": "W2"}


def llama(v, d, f, n_layers, n_heads, n_kv_heads, theta=10000.0, eps=1e-6, attn="eager"):
    config = LlamaConfig(vocab_size=v, hidden_size=d, intermediate_size=f, num_hidden_layers=n_layers,
                         num_attention_heads=n_heads, num_key_value_heads=n_kv_heads,
                         head_dim=d // n_heads, rms_norm_eps=eps, tie_word_embeddings=False,
                         attention_bias=False, mlp_bias=False, attn_implementation=attn,
                         rope_parameters={"rope_type": "default", "rope_theta": theta})
    return LlamaForCausalLM(config).double().eval()


def randomise(model, seed):
    """Random gains and weights (order-1 activations), drawn into the model in place."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, t in model.named_parameters():
            noise = torch.randn(t.shape, generator=gen, dtype=torch.float64)
            if t.dim() == 1:
                t.copy_(1.0 + 0.3 * noise)                 # RMSNorm gains
            elif name == "model.embed_tokens.weight":
                t.copy_(noise)
            else:
                t.copy_(noise / t.shape[1] ** 0.5)         # nn.Linear weights are (out, in)
    return model


def params_of(model):
    """The model's parameters in the lesson's layout: float64, every weight (in, out)."""
    state = model.state_dict()
    params = {"embed": state["model.embed_tokens.weight"].clone(),
              "norm": state["model.norm.weight"].clone(), "head": state["lm_head.weight"].T.clone()}
    for i in range(model.config.num_hidden_layers):
        for theirs, ours in BLOCK_NAMES.items():
            t = state[f"model.layers.{i}.{theirs}.weight"]
            params[f"layers.{i}.{ours}"] = (t.T if t.dim() == 2 else t).clone()
    return params


def logits(model, ids):
    with torch.no_grad():
        return model(ids).logits.numpy()


SHAPES = [  # b, t, v, d, f, n_layers, n_heads, n_kv_heads, theta, eps
    (3, 9, 50, 32, 64, 2, 4, 2, 10000.0, 1e-6),     # the brief's configuration: groups of two
    (2, 7, 23, 24, 40, 3, 6, 3, 10000.0, 1e-6),
    (2, 6, 19, 16, 24, 1, 4, 1, 500000.0, 1e-5),    # multi-query, LLaMA 3's base, LLaMA 2's eps
    (4, 5, 17, 12, 20, 2, 3, 3, 10000.0, 1e-6),     # as many key/value heads as query heads
    (2, 4, 13, 8, 12, 0, 2, 1, 10000.0, 1e-6),      # no blocks
]


@pytest.mark.parametrize("attn", ["eager", "sdpa"])
@pytest.mark.parametrize("b, t, v, d, f, n_layers, n_heads, n_kv_heads, theta, eps", SHAPES)
def test_logits_equal_llamaforcausallm(attn, b, t, v, d, f, n_layers, n_heads, n_kv_heads, theta, eps):
    ids = torch.randint(0, v, (b, t), generator=torch.Generator().manual_seed(v))
    dims = (v, d, f, n_layers, n_heads, n_kv_heads, theta, eps)
    seed = b * 1000 + t * 100 + n_layers
    as_is = randomise(llama(*dims, attn=attn), seed)
    with float64_casts():
        model = randomise(llama(*dims, attn=attn), seed)
        want = logits(model, ids)
    params = params_of(model)
    got = llama_forward(ids, params, n_heads, n_kv_heads, theta, eps)
    assert got.dtype == torch.float64 and got.shape == (b, t, v)
    np.testing.assert_allclose(got.numpy(), want, **TIGHT)
    np.testing.assert_allclose(got.numpy(), logits(as_is, ids), **LOOSE)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([(4, 2), (4, 1), (6, 3), (6, 2), (8, 4), (2, 2)]), st.integers(1, 4),
       st.integers(0, 3), st.integers(1, 3), st.integers(0, 10_000),
       st.sampled_from([100.0, 10000.0, 500000.0]), st.sampled_from([1e-6, 1e-5]))
def test_drawn_configurations_equal_llamaforcausallm(heads, hd_pairs, n_layers, b, seed, theta, eps):
    """Any head counts (n_kv_heads dividing n_heads), even head sizes, depths, batch sizes and
    lengths, bases and epsilons."""
    n_heads, n_kv_heads = heads
    d, gen = n_heads * 2 * hd_pairs, torch.Generator().manual_seed(seed)
    t, v, f = 1 + seed % 9, 5 + seed % 17, 4 + seed % 13
    ids = torch.randint(0, v, (b, t), generator=gen)
    with float64_casts():
        model = randomise(llama(v, d, f, n_layers, n_heads, n_kv_heads, theta, eps), seed)
        want = logits(model, ids)
    got = llama_forward(ids, params_of(model), n_heads, n_kv_heads, theta, eps)
    np.testing.assert_allclose(got.numpy(), want, **TIGHT)


@pytest.mark.parametrize("mistake", ["eps-not-passed", "eps-outside-sqrt", "norm-subtracts-mean",
                                     "tile-kv-heads", "rope-interleaved", "rope-on-values",
                                     "theta-not-passed", "tied-head", "no-final-norm",
                                     "silu-on-up-branch", "post-norm", "scale-by-d-model",
                                     "no-causal-mask"])
def test_the_comparison_tells_each_mistake_apart(mistake):
    """Guard: on the configuration above (theta 500000 here, so that a forgotten theta shows) the
    reference agrees with the library and each known mistake misses it by far more than the
    comparison's 1e-10 (some, as eps outside the root, by little more than float32's precision):
    the comparison really depends on eps, the order of the shared heads, and so on."""
    ids = torch.randint(0, 50, (3, 9), generator=torch.Generator().manual_seed(3))
    with float64_casts():
        model = randomise(llama(50, 32, 64, 2, 4, 2, theta=500000.0), seed=30)
        want = logits(model, ids)
    params = params_of(model)
    np.testing.assert_allclose(llama_forward(ids, params, 4, 2, 500000.0, 1e-6).numpy(), want, **TIGHT)
    wrong = next(ns for m, ns in LESSON.mistakes if m.id == mistake)["llama_forward"]
    assert not np.allclose(wrong(ids, params, 4, 2, 500000.0, 1e-6).numpy(), want, **APART)


def library_model_for(call):
    """A LlamaForCausalLM holding a case's parameters, with the case's theta and eps."""
    ids, params, n_heads, n_kv_heads = call.args
    theta, eps = call.kwargs.get("theta", 10000.0), call.kwargs.get("eps", 1e-6)
    (v, d), f = params["embed"].shape, next((t.shape[1] for k, t in params.items()
                                             if k.endswith(".W1")), 4)
    n_layers = sum(k.endswith(".norm1") for k in params)
    model = llama(v, d, f, n_layers, n_heads, n_kv_heads, theta, eps)
    state = {"model.embed_tokens.weight": params["embed"], "model.norm.weight": params["norm"],
             "lm_head.weight": params["head"].T}
    for i in range(n_layers):
        for theirs, ours in BLOCK_NAMES.items():
            t = params[f"layers.{i}.{ours}"]
            state[f"model.layers.{i}.{theirs}.weight"] = t.T if t.dim() == 2 else t
    model.load_state_dict(state, strict=True)
    return model, ids


@pytest.mark.parametrize("case", LESSON.cases, ids=[c.name for c in LESSON.cases])
def test_every_case_of_the_lesson_is_llama(case):
    for c, out in zip(case.calls, LESSON.expected[LESSON.cases.index(case)].outputs):
        with float64_casts():
            model, ids = library_model_for(c)
            want = logits(model, ids)
        assert np.isfinite(want).all()
        np.testing.assert_allclose(out.array, want, **TIGHT)
