"""Hidden cases for lesson 30 (a LLaMA-style forward pass: RMSNorm, RoPE, GQA, SwiGLU)."""
import numpy as np
import torch

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("It holds L >= 0 blocks numbered 0 .. L-1; find L from the names.",
            cases=("0 blocks", "1 block", "3 blocks"),
            broken_by=(edit('x = block(x, params, f"layers.{i}.",', 'x = block(x, params, "layers.0.",'),
                       edit("for i in range(n_layers):", "for i in range(n_layers - 1):"))),
    promise("The head is a matrix of its own, not tied to the embedding",
            cases=("0 blocks", "example 1"), broken_by=("tied-head", "no-final-norm")),
    promise("Weights multiply on the right, as stored: x @ W, with W of shape (in, out).",
            cases=("1 block", "3 blocks"),
            broken_by=(edit('reshape(B, T, D) @ params[prefix + "Wo"]',
                            'reshape(B, T, D) @ params[prefix + "Wo"].T'),)),
    promise("Queries and keys, never values, are rotated with the given rope, within each head, "
            "at positions 0 .. T-1",
            cases=("1 block", "3 blocks", "attention only (MLP output zeroed)"),
            broken_by=("rope-on-values", "rope-on-queries-only", "rope-before-split",
                       "rope-on-input", "rope-interleaved")),
    promise("theta is RoPE's base", cases=("RoPE base 500000 (LLaMA 3)",),
            broken_by=("theta-not-passed",)),
    promise("query head h reads key/value head h // (n_heads / n_kv_heads)",
            cases=("1 block", "groups of three query heads", "one key/value head (multi-query)",
                   "as many key/value heads as query heads"),
            broken_by=("tile-kv-heads",
                       edit("k = k.repeat_interleave(group, dim=1)",
                            "k = k.repeat_interleave(n_kv_heads, dim=1)"))),
    promise("Attention is causal, with scores scaled by 1 / sqrt(hd).",
            cases=("prefix invariance", "1 block"),
            broken_by=("no-causal-mask", "scale-by-d-model")),
    promise("Every RMSNorm, the final one included, uses the eps given",
            cases=("small activations, where eps counts", "eps 1e-3"),
            broken_by=("eps-not-passed", "eps-outside-sqrt", "norm-subtracts-mean")),
    promise("one pre-norm block on the residual stream x",
            cases=("1 block", "MLP only (attention output zeroed)",
                   "attention only (MLP output zeroed)"),
            broken_by=("post-norm", "normalised-stream", "norm1-for-both", "no-residual")),
    promise("the SwiGLU MLP, (silu(x @ W1) * (x @ W3)) @ W2",
            cases=("MLP only (attention output zeroed)",),
            broken_by=("silu-on-up-branch", "gelu-not-silu", "no-gate")),
    promise("Leave ids and params unchanged.", cases=("1 block",),
            broken_by=(edit('x = params["embed"][ids]', 'x = params.pop("embed")[ids]'),)),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("no blocks", "embed", "final", "head", "block", "stream", "pre-norm"),
                 ("heads", "rope", "queries and keys", "repeat_interleave", "causal", "sqrt(hd)",
                  "theta"),
                 ("swiglu", "silu", "W1", "W3", "eps", "rmsnorm")),
    functions=("llama_forward",),
    forbidden={
        "transformers": "this lesson builds the model from its parameters; a library model would "
                        "do it for you",
        "LlamaForCausalLM": "this lesson builds the model from its parameters, without the "
                            "library's model",
    },
)


def t64(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def llama_params(rng, v, d, f, n_layers, n_heads, n_kv_heads, embed_scale=1.0, zero=()):
    """Random parameters in the lesson's layout (float64 tensors, weights (in, out)).

    Gains are distinct and non-unit and the weights are scaled so that scores and gate inputs are
    of order 1. `zero` names per-block weights (e.g. "W2") set to zero in every block.
    """
    kv = n_kv_heads * (d // n_heads)
    params = {"embed": embed_scale * rng.normal(size=(v, d))}
    for i in range(n_layers):
        h = f"layers.{i}."
        params.update({
            h + "norm1": 1.0 + 0.3 * rng.normal(size=d),
            h + "Wq": rng.normal(scale=1.5 * d ** -0.5, size=(d, d)),
            h + "Wk": rng.normal(scale=1.5 * d ** -0.5, size=(d, kv)),
            h + "Wv": rng.normal(scale=d ** -0.5, size=(d, kv)),
            h + "Wo": rng.normal(scale=d ** -0.5, size=(d, d)),
            h + "norm2": 1.0 + 0.3 * rng.normal(size=d),
            h + "W1": rng.normal(scale=1.2 * d ** -0.5, size=(d, f)),
            h + "W3": rng.normal(scale=d ** -0.5, size=(d, f)),
            h + "W2": rng.normal(scale=f ** -0.5, size=(f, d)),
        })
        for name in zero:
            params[h + name] = np.zeros_like(params[h + name])
    params["norm"] = 1.0 + 0.3 * rng.normal(size=d)
    params["head"] = rng.normal(scale=d ** -0.5, size=(d, v))
    return {k: t64(a) for k, a in params.items()}


def token_ids(rng, b, t, v):
    return torch.from_numpy(rng.integers(0, v, size=(b, t)).astype(np.int64))


def dims(b, t, v, d, f, n_layers, n_heads, n_kv_heads):
    return (f"B={b}, T={t}, V={v}, D={d}, F={f}, {n_layers} block(s), {n_heads} query heads and "
            f"{n_kv_heads} key/value heads of size {d // n_heads}")


def forward(rng, b, t, v, d, f, n_layers, n_heads, n_kv_heads, embed_scale=1.0, zero=(), **options):
    params = llama_params(rng, v, d, f, n_layers, n_heads, n_kv_heads, embed_scale, zero)
    return call("llama_forward", token_ids(rng, b, t, v), params, n_heads, n_kv_heads, **options)


def prefix_unchanged(got, expected, calls):
    full, prefix = got[0].array, got[1].array
    want_full, want_prefix = expected[0].array, expected[1].array
    if full.shape != want_full.shape or prefix.shape != want_prefix.shape:
        return (f"expected shapes {want_full.shape} and {want_prefix.shape}, "
                f"got {full.shape} and {prefix.shape}")
    t = prefix.shape[1]
    if not np.allclose(prefix, full[:, :t], rtol=1e-6, atol=1e-9):
        gap = np.max(np.abs(prefix - full[:, :t]))
        return (f"the logits for the first {t} tokens changed when more tokens followed them (by up "
                f"to {gap:.6g}): a token must not see the tokens after it")
    if not np.allclose(full, want_full, rtol=1e-6, atol=1e-9):
        return "your logits do not change when later tokens are added, but their values are wrong"
    return None


def cases(rng):
    for shape, hint in (((2, 5, 17, 12, 20, 0, 3, 1), 1), ((2, 7, 19, 16, 24, 1, 4, 2), 2),
                        ((2, 6, 23, 24, 40, 3, 6, 3), 1)):
        n_layers = shape[5]
        yield case(f"{n_layers} block{'s' if n_layers != 1 else ''}", forward(rng, *shape),
                   probe=dims(*shape) + (": embedding, final norm and head only" if not n_layers
                                         else ""), hint=hint)
    shape = (2, 6, 13, 24, 32, 1, 6, 2)
    yield case("groups of three query heads", forward(rng, *shape),
               probe=dims(*shape) + ": query heads 0-2 share key/value head 0, 3-5 head 1", hint=2)
    shape = (3, 5, 11, 16, 20, 2, 4, 1)
    yield case("one key/value head (multi-query)", forward(rng, *shape), probe=dims(*shape), hint=2)
    shape = (5, 4, 19, 12, 16, 2, 2, 2)
    yield case("as many key/value heads as query heads", forward(rng, *shape),
               probe=dims(*shape) + ": five sequences, plain multi-head attention", hint=2)
    shape = (3, 1, 15, 16, 24, 2, 4, 2)
    yield case("a single token", forward(rng, *shape),
               probe=dims(*shape) + ": each token attends only to itself, at position 0", hint=1)
    shape = (2, 8, 17, 16, 24, 1, 2, 1)
    yield case("RoPE base 500000 (LLaMA 3)", forward(rng, *shape, theta=500000.0),
               probe=dims(*shape) + ", theta = 500000", hint=2)
    shape = (2, 6, 14, 16, 20, 2, 4, 2)
    yield case("small activations, where eps counts", forward(rng, *shape, embed_scale=2e-3),
               probe=dims(*shape) + ": embeddings of about 0.002, so the mean square is near eps "
                                    "= 1e-6", hint=3)
    shape = (2, 5, 12, 8, 12, 1, 2, 1)
    yield case("eps 1e-3", forward(rng, *shape, embed_scale=0.05, eps=1e-3),
               probe=dims(*shape) + ", eps = 1e-3 and embeddings of about 0.05", hint=3)
    shape = (2, 6, 16, 16, 24, 1, 4, 2)
    yield case("attention only (MLP output zeroed)", forward(rng, *shape, zero=("W2",)),
               probe=dims(*shape) + ": W2 is zero, so the MLP adds nothing", hint=2,
               part="the attention sub-layer")
    yield case("MLP only (attention output zeroed)", forward(rng, *shape, zero=("Wo",)),
               probe=dims(*shape) + ": Wo is zero, so attention adds nothing and only the SwiGLU "
                                    "MLP counts", hint=3,
               part="the SwiGLU MLP")
    ids, params = token_ids(rng, 2, 9, 17), llama_params(rng, 17, 16, 24, 2, 4, 2)
    yield case("prefix invariance",
               call("llama_forward", ids, params, 4, 2),
               call("llama_forward", ids[:, :5].clone(), params, 4, 2),
               probe="9 tokens, then their first 5 (B=2, V=17, D=16, 2 blocks, 4 query heads, 2 "
                     "key/value heads): the first 5 positions' logits must not change",
               check=prefix_unchanged, hint=2)
