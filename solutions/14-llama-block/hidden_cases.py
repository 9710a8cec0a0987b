"""Hidden cases for lesson 14 (a LLaMA-style transformer block)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("silu(z): SiLU, elementwise, for a float64 array z of any shape.",
            cases=("silu on random values", "example 1"),
            broken_by=("sigmoid-instead-of-silu", "gelu-instead-of-silu", "tanh-without-half")),
    promise("Use a sigmoid that never overflows, sigmoid(z) = 0.5 * (1 + tanh(z / 2)): inputs may be "
            "as large as +-1000.",
            cases=("example 2", "silu at large positive inputs", "silu at large negative inputs"),
            broken_by=("naive-sigmoid", "exp-ratio-sigmoid", "where-evaluates-both")),
    promise("swiglu_mlp(u, W1, W3, W2): returns (silu(u @ W1) * (u @ W3)) @ W2.",
            cases=("example 3", "swiglu on a batch", "swiglu with F smaller than D"),
            broken_by=("swapped-gate", "silu-on-both-branches", "no-gate-branch")),
    promise('h = x + mha_forward(rmsnorm(x, p["norm1"]), p["Wq"], p["Wk"], p["Wv"], p["Wo"], n_heads)',
            cases=("attention sub-layer only (W2 = 0)", "block with 3 heads", "prefix invariance"),
            broken_by=("values-from-wk", "missing-attention-residual")),
    promise("Pre-norm: normalise the input of each sub-layer, and add the sub-layer's output to the "
            "un-normalised stream.",
            cases=("attention sub-layer only (W2 = 0)", "MLP sub-layer only (Wo = 0)",
                   "zero output projections return x"),
            broken_by=("normalised-stream", "post-norm", "missing-mlp-residual", "one-gain-for-both",
                       "gains-swapped")),
    promise("The second sub-layer reads h, the output of the first, not x.",
            cases=("block with 3 heads", "block with 2 heads", "one token (T = 1)"),
            broken_by=("mlp-reads-x",)),
    promise("Leave x and p unchanged.", cases=("block with 3 heads",),
            broken_by=(edit("    return h + swiglu_mlp(", "    p[\"norm2\"] = p[\"norm2\"] * 1.0\n    p[\"Wq\"] = None\n    return h + swiglu_mlp("),)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("stream", "normalise", "untouched", "sub-layer"), ("SiLU", "W1", "W3", "tanh", "overflow"), ("norm1", "norm2", "silu", "swiglu_mlp")),
            functions=("silu", "swiglu_mlp", "transformer_block"), no_loops=True)


def params(rng, d, f, zero=()):
    """Random block parameters: distinct, non-unit gains and weights of a sensible scale."""
    p = {
        "norm1": rng.uniform(0.4, 1.9, size=d),
        "norm2": rng.uniform(0.4, 1.9, size=d),
        "Wq": rng.normal(scale=1 / np.sqrt(d), size=(d, d)),
        "Wk": rng.normal(scale=1 / np.sqrt(d), size=(d, d)),
        "Wv": rng.normal(scale=1 / np.sqrt(d), size=(d, d)),
        "Wo": rng.normal(scale=1 / np.sqrt(d), size=(d, d)),
        "W1": rng.normal(scale=1 / np.sqrt(d), size=(d, f)),
        "W3": rng.normal(scale=1 / np.sqrt(d), size=(d, f)),
        "W2": rng.normal(scale=1 / np.sqrt(f), size=(f, d)),
    }
    for name in zero:
        p[name] = np.zeros_like(p[name])
    return p


def stream(rng, b, t, d):
    """A residual stream whose scale is far from 1, so normalising it is visible."""
    return rng.normal(scale=2.5, size=(b, t, d))


def returns_input(got, expected, calls):
    x = calls[0].args[0]
    y = np.asarray(got[0], dtype=np.float64)
    if y.shape != x.shape:
        return f"expected shape {x.shape}, got shape {y.shape}"
    if not np.allclose(y, x, rtol=1e-6, atol=1e-9):
        return ("with Wo = 0 and W2 = 0 both sub-layers add exactly zero, so the block should "
                f"return x unchanged; yours differs from x by up to {np.max(np.abs(y - x)):.6g}")
    return None


def prefix_invariant(got, expected, calls):
    full = np.asarray(got[0], dtype=np.float64)
    prefix = np.asarray(got[1], dtype=np.float64)
    want_full, want_prefix = expected
    if full.shape != want_full.shape or prefix.shape != want_prefix.shape:
        return (f"expected shapes {want_full.shape} and {want_prefix.shape}, "
                f"got {full.shape} and {prefix.shape}")
    t = prefix.shape[-2]
    if not np.allclose(full[:, :t], prefix, rtol=1e-6, atol=1e-9):
        gap = np.max(np.abs(full[:, :t] - prefix))
        return (f"the first {t} positions of the full sequence should equal the block run on those "
                f"{t} tokens alone (no token may read a later one); they differ by up to {gap:.6g}")
    return None


def cases(rng):
    # --- silu ---
    yield case("silu on random values", call("silu", rng.normal(scale=4.0, size=(3, 7))),
               probe="a (3, 7) array of real values between about -12 and 12")
    yield case("silu at large positive inputs", call("silu", 1000.0 + rng.normal(scale=5.0, size=(2, 4))),
               probe="inputs near +1000, with floating-point warnings raised as errors",
               float_errors=True, hint=2)
    yield case("silu at large negative inputs", call("silu", -1000.0 + rng.normal(scale=5.0, size=(2, 4))),
               probe="inputs near -1000, with floating-point warnings raised as errors",
               float_errors=True, hint=2)

    # --- swiglu_mlp ---
    d, f = 6, 11
    yield case("swiglu on a batch",
               call("swiglu_mlp", rng.normal(size=(2, 5, d)), rng.normal(size=(d, f)),
                    rng.normal(size=(d, f)), rng.normal(size=(f, d)) / np.sqrt(f)),
               probe="u of shape (2, 5, 6), W1 and W3 of shape (6, 11), W2 of shape (11, 6)", hint=2)
    d, f = 9, 5
    yield case("swiglu with F smaller than D",
               call("swiglu_mlp", rng.normal(scale=1.5, size=(4, d)), rng.normal(size=(d, f)),
                    rng.normal(size=(d, f)), rng.normal(size=(f, d))),
               probe="u of shape (4, 9), W1 and W3 of shape (9, 5), W2 of shape (5, 9)", hint=2)

    # --- transformer_block ---
    for b, t, d, f, h in ((2, 5, 12, 7, 3), (3, 7, 8, 10, 2), (2, 3, 5, 8, 1), (3, 9, 12, 5, 6)):
        yield case(f"block with {h} head{'s' if h > 1 else ''}",
                   call("transformer_block", stream(rng, b, t, d), params(rng, d, f), h),
                   probe=f"x of shape ({b}, {t}, {d}), F = {f}, {h} head(s) of size {d // h}, "
                         "distinct gains for norm1 and norm2", hint=3)
    yield case("one token (T = 1)",
               call("transformer_block", stream(rng, 3, 1, 8), params(rng, 8, 6), 4),
               probe="x of shape (3, 1, 8): a single token attends only to itself")
    yield case("attention sub-layer only (W2 = 0)",
               call("transformer_block", stream(rng, 2, 6, 10), params(rng, 10, 7, zero=("W2",)), 2),
               probe="W2 = 0, so the block's output is h: the first sub-layer on its own", hint=1,
               part="the attention sub-layer")
    yield case("MLP sub-layer only (Wo = 0)",
               call("transformer_block", stream(rng, 3, 6, 10), params(rng, 10, 7, zero=("Wo",)), 5),
               probe="Wo = 0, so h = x and the block is x plus the MLP of a normalised copy of x",
               hint=1, part="the MLP sub-layer")
    x = stream(rng, 3, 4, 6)
    yield case("zero output projections return x",
               call("transformer_block", x, params(rng, 6, 9, zero=("Wo", "W2")), 3),
               probe='transformer_block(x, p, 3) with x of shape (3, 4, 6) and p["Wo"] = p["W2"] = 0 '
                     "(both sub-layers add zero, so the block must return x)",
               public=True, check=returns_input, hint=1)
    x, p = stream(rng, 2, 8, 12), params(rng, 12, 7)
    yield case("prefix invariance",
               call("transformer_block", x, p, 4), call("transformer_block", x[:, :5].copy(), p, 4),
               probe="the block on 8 tokens, then on their first 5: the first 5 outputs must agree",
               check=prefix_invariant)
