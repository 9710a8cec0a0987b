"""Hidden cases for lesson 10 (a residual attention block in PyTorch)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("h + ReLU(h), where h = layer_norm(X + causal_attention(X, X, X)), normalized over each "
            "row with eps=1e-5",
            cases=("example 1", "random (5, 3)", "one token", "width 2"),
            broken_by=("normalize-before-residual", "no-first-residual", "relu-without-residual",
                       "residual-from-input", "normalize-whole-table", "wrong-eps",
                       "unbiased-variance", "eps-outside-sqrt", "normalize-over-tokens", "pre-norm",
                       "relu-of-input", "gelu-not-relu", "second-norm", "residual-added-twice",
                       "shape-without-comma", "unscaled-scores", "scale-by-sequence-length")),
    promise("The entries may be whole numbers or decimals.", cases=("example 1", "example 2"),
            broken_by=("no-dtype",)),
    promise("Compute in float64.", cases=("offset values", "random (6, 4)"),
            broken_by=("float32", "double-after-float32", "layernorm-module-float32")),
    promise("Attention is causal: a row of the output never depends on the rows after it.",
            cases=("prefix invariance", "a future key far above the rest", "random (3, 7)"),
            broken_by=("no-causal-mask", "inverted-mask", "mask-after-softmax",
                       "renormalise-after-softmax", "float-causal-mask", "mask-of-future")),
    promise("Return plain nested lists, not a tensor.", cases=("example 1",),
            broken_by=("returns-tensor",)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("add", "order", "ReLU", "wire"), ("is_causal", "layer_norm", "scaled_dot_product_attention", "last dimension"), ("float64", "(x.shape[-1],)", "eps=1e-5", ".tolist()", "h + torch.relu(h)", "float")),
            functions=("solve",))


def prefix_unchanged(got, expected, calls):
    full, prefix = np.asarray(got[0], dtype=float), np.asarray(got[1], dtype=float)
    k = len(calls[1].args[0])
    if full.shape != np.asarray(expected[0]).shape or prefix.shape != np.asarray(expected[1]).shape:
        return (f"expected shapes {np.asarray(expected[0]).shape} and {np.asarray(expected[1]).shape}, "
                f"got {full.shape} and {prefix.shape}")
    if not np.allclose(prefix, full[:k], rtol=1e-6, atol=1e-9):
        row = int(np.argmax(np.abs(prefix - full[:k]).max(axis=1)))
        return (f"the first {k} rows of the output changed when later rows were added to the input "
                f"(first at row {row}): a token must not see the tokens after it")
    if not np.allclose(full, np.asarray(expected[0]), rtol=1e-6, atol=1e-9):
        return "the output rows do not change with later tokens, but their values are not the block's"
    return None


def cases(rng):
    yield case("random (5, 3)", call("solve", rng.normal(size=(5, 3)).tolist()),
               probe="5 tokens of width 3, real-valued")
    yield case("random (3, 7)", call("solve", rng.normal(size=(3, 7)).tolist()),
               probe="3 tokens of width 7 (fewer tokens than features)")
    yield case("random (6, 4)", call("solve", rng.normal(size=(6, 4)).tolist()),
               probe="6 tokens of width 4")
    yield case("one token", call("solve", rng.normal(size=(1, 5)).tolist()),
               probe="a single token of width 5 (attention returns it unchanged)")
    yield case("width 2", call("solve", rng.normal(size=(4, 2)).tolist()),
               probe="4 tokens of width 2 (each normalized row is close to +1 and -1)")
    yield case("large values", call("solve", (20.0 * rng.normal(size=(5, 6))).tolist()),
               probe="values around +-20: attention weights close to one-hot")
    yield case("tiny values", call("solve", (1e-3 * rng.normal(size=(4, 6))).tolist()),
               probe="values around 1e-3, where eps=1e-5 is not negligible beside the variance",
               hint=3)
    yield case("offset values", call("solve", (30.0 + rng.normal(size=(6, 5))).tolist()),
               probe="values near 30 with a small spread, where float32 loses digits", hint=3)
    yield case("long sequence", call("solve", rng.normal(scale=2.0, size=(9, 3)).tolist()),
               probe="9 tokens of width 3")
    x = rng.normal(size=(7, 4))
    yield case("prefix invariance", call("solve", x.tolist()), call("solve", x[:3].tolist()),
               probe="the first 3 rows of the output do not change when 4 more tokens follow",
               check=prefix_unchanged)


    # The last token's first feature is huge and every token's is 1, so for every earlier query
    # the last (future) key outscores the allowed ones by more than exp can span (~745): a causal
    # mask applied after the softmax leaves those queries with weights of exactly 0.
    x = rng.uniform(-1, 1, size=(6, 5))
    x[:, 0] = 1.0
    x[-1, 0] = 3000.0
    yield case("a future key far above the rest", call("solve", x.tolist()),
               probe="the last token scores thousands above the others for every query: only "
                     "masking the scores before the softmax, as is_causal=True does, keeps it from the "
                     "tokens before it",
               hint=2)
