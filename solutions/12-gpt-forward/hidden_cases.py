"""Hidden cases for lesson 12 (a GPT-2 forward pass from GPT-2's own state-dict names)."""
import numpy as np
import torch

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("It holds L >= 0 blocks numbered 0 .. L-1; find L from the names.",
            cases=("0 blocks", "1 block", "3 blocks"),
            broken_by=("blocks-never-run", "too-many-blocks")),
    promise("no lm_head.weight: the head is tied to wte", cases=("0 blocks", "example 1"),
            broken_by=("lm-head-key", "head-not-transposed")),
    promise("Weights multiply on the right, as stored: x @ W + b, with W of shape (in, out).",
            cases=("1 block", "example 3", "MLP only (attention output zeroed)"),
            broken_by=("linear-transposes-weights", "attn-proj-transposed", "no-biases")),
    promise("Queries, keys and values come from c_attn's output columns in the order q, k, v; heads "
            "are consecutive slices of hs = D / H columns within each.",
            cases=("many small heads", "attention only (MLP output zeroed)", "3 blocks"),
            broken_by=("qkv-heads-first", "qkv-wrong-order", "heads-without-transpose",
                       "merge-without-transpose", "one-head")),
    promise("Attention is causal, with scores scaled by 1 / sqrt(hs) and the mask applied before "
            "the softmax.",
            cases=("a future key far above the rest", "prefix invariance",
                   "attention only (MLP output zeroed)"),
            broken_by=("no-causal-mask", "mask-after-softmax", "scale-by-sqrt-d-model",
                       "no-attention-scale", "mask-hides-self")),
    promise("Layer norms use eps = 1e-5, GPT-2's value.", cases=("0 blocks", "example 1"),
            broken_by=(edit('params["transformer.ln_f.bias"])',
                            'params["transformer.ln_f.bias"], eps=1e-3)'),)),
    promise("one pre-norm block on the residual stream x",
            cases=("1 block", "MLP only (attention output zeroed)",
                   "attention only (MLP output zeroed)"),
            broken_by=("post-norm", "normalised-stream", "parallel-sublayers", "ln-1-for-both",
                       "no-residual")),
    promise("the tanh-form GELU that GPT-2 uses", cases=("MLP only (attention output zeroed)",),
            broken_by=("gelu-erf", "relu-mlp", "gelu-sigmoid")),
    promise("ids: an int64 tensor of shape (B, T), 1 <= T <= P, entries in 0 .. V-1.",
            cases=("short sequence, long position table", "a single token", "0 blocks"),
            broken_by=("no-position-embeddings", "positions-from-ids", "whole-position-table",
                       "positions-from-one")),
    promise("Leave ids and params unchanged.", cases=("1 block",),
            broken_by=(edit('wte = params["transformer.wte.weight"]',
                            'wte = params.pop("transformer.wte.weight")'),)),
)

SPEC = Spec(promises=PROMISES, 
    hint_topics=(("no blocks", "wpe[:T]", "ln_f", "wte.T", "position", "block", "stream"), ("split", "head", "causal", "is_causal", "sqrt(hs)", "-inf", "(in, out)", "x @ W + b", "F.linear", "merge"), ("gelu", "tanh", "mlp", "ln_2", "c_fc")),
    functions=("gpt_forward",),
    forbidden={
        "transformers": "this lesson builds GPT-2 from its parameters; a library model would do it for you",
        "GPT2LMHeadModel": "this lesson builds GPT-2 from its parameters, without the library's model",
        "GPT2Model": "this lesson builds GPT-2 from its parameters, without the library's model",
    },
)


def t64(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def gpt2_params(rng, v, p, d, n_layers, zero=()):
    """A random GPT-2 state dict (float64 tensors, GPT-2's names and shapes).

    Gains are distinct and non-unit, every bias is non-zero, and the weights are scaled so that
    attention scores and GELU inputs are of order 1. `zero` names per-block parameters (e.g.
    "attn.c_proj.weight") set to zero in every block.
    """
    params = {
        "transformer.wte.weight": rng.normal(size=(v, d)),
        "transformer.wpe.weight": rng.normal(scale=0.7, size=(p, d)),
    }
    for i in range(n_layers):
        h = f"transformer.h.{i}."
        params.update({
            h + "ln_1.weight": 1.0 + 0.3 * rng.normal(size=d),
            h + "ln_1.bias": 0.2 * rng.normal(size=d),
            h + "attn.c_attn.weight": rng.normal(scale=d ** -0.5, size=(d, 3 * d)),
            h + "attn.c_attn.bias": 0.3 * rng.normal(size=3 * d),
            h + "attn.c_proj.weight": rng.normal(scale=d ** -0.5, size=(d, d)),
            h + "attn.c_proj.bias": 0.3 * rng.normal(size=d),
            h + "ln_2.weight": 1.0 + 0.3 * rng.normal(size=d),
            h + "ln_2.bias": 0.2 * rng.normal(size=d),
            h + "mlp.c_fc.weight": rng.normal(scale=1.2 * d ** -0.5, size=(d, 4 * d)),
            h + "mlp.c_fc.bias": 0.3 * rng.normal(size=4 * d),
            h + "mlp.c_proj.weight": rng.normal(scale=(4 * d) ** -0.5, size=(4 * d, d)),
            h + "mlp.c_proj.bias": 0.3 * rng.normal(size=d),
        })
        for name in zero:
            params[h + name] = np.zeros_like(params[h + name])
    params["transformer.ln_f.weight"] = 1.0 + 0.3 * rng.normal(size=d)
    params["transformer.ln_f.bias"] = 0.2 * rng.normal(size=d)
    return {k: t64(a) for k, a in params.items()}


def token_ids(rng, b, t, v):
    return torch.from_numpy(rng.integers(0, v, size=(b, t)).astype(np.int64))


def forward(rng, b, t, v, p, d, n_layers, n_heads, zero=()):
    return call("gpt_forward", token_ids(rng, b, t, v), gpt2_params(rng, v, p, d, n_layers, zero),
                n_heads)


def dims(b, t, v, p, d, n_layers, n_heads):
    return (f"B={b}, T={t}, V={v}, P={p}, D={d}, {n_layers} block(s), {n_heads} head(s) "
            f"of size {d // n_heads}")


def future_key_params(rng, v, p, d, n_heads, t, shift=1e3, gain=40.0):
    """One block in which, in every head, the key at the last position t - 1 scores more than 2,000
    above every earlier key, for every query and whatever the draw.

    Positions 0..t-2 get -shift * c added to their position embedding and position t-1 gets
    +shift * c, where c = (1, -1/(D-1), ..., -1/(D-1)) has mean 0. The layer norm then maps feature 0
    of the earlier tokens to about -sqrt(D-1) and of the last token to about +sqrt(D-1) (ln_1's gain
    on feature 0 is 1, its bias 0). Every query is the constant bias `gain` on the first entry of its
    head; every key's first entry is `gain` times feature 0. So a query's score for the last key
    beats its score for any earlier key by about gain^2 * 2 sqrt(D-1) / sqrt(hs).
    """
    params = {k: a.numpy().copy() for k, a in gpt2_params(rng, v, p, d, 1).items()}
    hs = d // n_heads
    c = np.full(d, -1.0 / (d - 1))
    c[0] = 1.0
    wpe = params["transformer.wpe.weight"]
    wpe[: t - 1] -= shift * c
    wpe[t - 1] += shift * c
    h = "transformer.h.0."
    params[h + "ln_1.weight"][0], params[h + "ln_1.bias"][0] = 1.0, 0.0
    w, b = params[h + "attn.c_attn.weight"], params[h + "attn.c_attn.bias"]
    w[:, :d] = 0.0                                   # queries: the bias alone
    b[:d] = 0.0
    b[0:d:hs] = gain                                 # entry 0 of every head's query
    key_first = d + np.arange(0, d, hs)              # entry 0 of every head's key
    w[:, key_first] = 0.0
    w[0, key_first] = gain
    b[key_first] = 0.0
    gap = gain ** 2 * 2 * (np.sqrt(d - 1) - 0.05) / np.sqrt(hs)
    assert gap > 2000.0, gap
    return {k: t64(a) for k, a in params.items()}


def prefix_unchanged(got, expected, calls):
    full, prefix = got[0].array, got[1].array
    want_full, want_prefix = expected[0].array, expected[1].array
    if full.shape != want_full.shape or prefix.shape != want_prefix.shape:
        return (f"expected shapes {want_full.shape} and {want_prefix.shape}, "
                f"got {full.shape} and {prefix.shape}")
    t = prefix.shape[1]
    if not np.allclose(prefix, full[:, :t], rtol=1e-6, atol=1e-9):
        gap = np.max(np.abs(prefix - full[:, :t]))
        row = int(np.argmax(np.abs(prefix - full[:, :t]).max(axis=(0, 2))))
        return (f"the logits for the first {t} tokens changed when more tokens followed them "
                f"(by up to {gap:.6g}, first at position {row}): a token must not see the tokens "
                "after it")
    if not np.allclose(full, want_full, rtol=1e-6, atol=1e-9):
        return ("your logits do not change when later tokens are added, but their values are not "
                "GPT-2's")
    return None


def cases(rng):
    for b, t, v, p, d, n_layers, n_heads, hint in (
            (2, 5, 17, 9, 12, 0, 3, 1),
            (2, 7, 17, 10, 12, 1, 3, 2),
            (2, 6, 23, 11, 20, 3, 4, 1)):
        yield case(f"{n_layers} block{'s' if n_layers != 1 else ''}",
                   forward(rng, b, t, v, p, d, n_layers, n_heads),
                   probe=dims(b, t, v, p, d, n_layers, n_heads)
                   + (": embeddings, final layer norm and tied head only" if n_layers == 0 else ""),
                   hint=hint)
    yield case("a batch of several sequences", forward(rng, 5, 4, 19, 7, 10, 2, 2),
               probe=dims(5, 4, 19, 7, 10, 2, 2) + ": five sequences side by side", hint=2)
    yield case("short sequence, long position table", forward(rng, 3, 3, 13, 16, 8, 1, 2),
               probe=dims(3, 3, 13, 16, 8, 1, 2) + ": only positions 0, 1, 2 of the table are used",
               hint=1)
    yield case("many small heads", forward(rng, 2, 6, 11, 8, 18, 1, 9),
               probe=dims(2, 6, 11, 8, 18, 1, 9), hint=2)
    yield case("one head", forward(rng, 2, 5, 14, 9, 6, 1, 1),
               probe=dims(2, 5, 14, 9, 6, 1, 1), hint=2)
    yield case("a single token", forward(rng, 3, 1, 15, 6, 12, 2, 4),
               probe=dims(3, 1, 15, 6, 12, 2, 4) + ": each token attends only to itself", hint=1)
    yield case("attention only (MLP output zeroed)",
               forward(rng, 2, 6, 16, 9, 12, 1, 3, zero=("mlp.c_proj.weight", "mlp.c_proj.bias")),
               probe=dims(2, 6, 16, 9, 12, 1, 3) + ": mlp.c_proj weight and bias are zero, so the "
                     "MLP adds nothing and only the attention half of the block counts", hint=2,
               part="the attention half of the block")
    yield case("MLP only (attention output zeroed)",
               forward(rng, 2, 6, 16, 9, 12, 1, 3, zero=("attn.c_proj.weight", "attn.c_proj.bias")),
               probe=dims(2, 6, 16, 9, 12, 1, 3) + ": attn.c_proj weight and bias are zero, so "
                     "attention adds nothing and only the MLP half of the block counts", hint=3,
               part="the MLP half of the block")
    b, t, v, p, d, n_heads = 2, 6, 13, 8, 10, 2
    yield case("a future key far above the rest",
               call("gpt_forward", token_ids(rng, b, t, v),
                    future_key_params(rng, v, p, d, n_heads, t), n_heads),
               probe=dims(b, t, v, p, d, 1, n_heads) + ": in every head the last key scores more "
                     "than 2,000 above every other key, so the mask must act before the softmax "
                     "(a softmax over all keys leaves exactly 0 for the allowed ones)", hint=2)
    ids, params = token_ids(rng, 2, 8, 17), gpt2_params(rng, 17, 11, 12, 2)
    yield case("prefix invariance",
               call("gpt_forward", ids, params, 3), call("gpt_forward", ids[:, :5].clone(), params, 3),
               probe="8 tokens, then their first 5 (B=2, V=17, P=11, D=12, 2 blocks, 3 heads): the "
                     "logits for the first 5 must not change (causal attention)", check=prefix_unchanged,
               hint=2)
