"""Hidden cases for lesson 05 (layer normalization)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("x: a float64 array of shape (..., D): a single vector, a (T, D) sequence, a (B, T, D) "
            "batch, or more leading axes.",
            cases=("a single vector", "random sequence", "batched 3-D input", "four axes"),
            broken_by=("wrong-axis", "no-keepdims", "whole-array-stats")),
    promise("eps: the number added to the variance inside the square root.",
            cases=("example 5", "custom eps", "tiny inputs"),
            broken_by=("eps-on-std", "no-eps", "hardcoded-eps", "eps-added-to-output")),
    promise("(x - mean) / sqrt(var + eps) * gamma + beta",
            cases=("example 2", "random sequence", "constant vectors"),
            broken_by=("no-sqrt", "gamma-beta-swapped", "forgot-beta", "precedence", "not-centred")),
    promise("the population variance (divide by D)",
            cases=("example 1", "two features", "far from zero"),
            broken_by=("unbiased-variance", "variance-not-centred", "one-pass-variance", "float32")),
    promise("Normalise along the last axis only, whatever the number of leading axes.",
            cases=("square input", "four axes", "example 3"), broken_by=("wrong-axis",)),
    promise("Leave x unchanged.", cases=("random sequence",),
            broken_by=(edit("    centred = x - mean", "    x -= mean\n    centred = x"),)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("last axis", "axis=-1", "per vector"), ("keepdims", "variance", "eps", "centred", "square root"), ("gamma + beta", "c = x - mean", "mean(c ** 2")),
            functions=("layer_norm",),
            forbidden={"layer_norm": "write the normalisation yourself, without a library's layer norm",
                       "LayerNorm": "write the normalisation yourself, without a library's layer norm"})


def params(rng, d):
    """A gain and a shift with distinct, non-trivial entries."""
    return rng.normal(loc=1.0, scale=0.5, size=d), rng.normal(scale=0.5, size=d)


def standardised(got, expected, calls):
    """With gamma = 1 and beta = 0, every vector has mean 0 and variance var / (var + eps)."""
    x, out = calls[0].args[0], np.asarray(got[0])
    if out.shape != x.shape:
        return f"expected shape {x.shape}, got shape {out.shape}"
    means = out.mean(axis=-1)
    if not np.allclose(means, 0.0, atol=1e-9):
        return f"each output vector should have mean 0; yours have means up to {np.abs(means).max():.6g}"
    var = x.var(axis=-1)
    want, have = var / (var + 1e-5), out.var(axis=-1)
    if not np.allclose(have, want, rtol=1e-6, atol=1e-9):
        worst = np.argmax(np.abs(have - want))
        return (f"each output vector should have population variance var / (var + eps), just under 1; "
                f"one of yours has {have.flat[worst]:.6g} where {want.flat[worst]:.6g} was expected")
    return None


def cases(rng):
    g, b = params(rng, 7)
    yield case("random sequence", call("layer_norm", rng.normal(size=(5, 7)), g, b),
               probe="a (5, 7) sequence of real-valued vectors with random gain and shift")
    g, b = params(rng, 6)
    yield case("batched 3-D input", call("layer_norm", rng.normal(scale=2.0, size=(2, 3, 6)), g, b),
               probe="a (2, 3, 6) batch: normalise along the last axis only", hint=1)
    g, b = params(rng, 5)
    yield case("four axes", call("layer_norm", rng.normal(size=(3, 2, 4, 5)), g, b),
               probe="a (3, 2, 4, 5) array: any number of leading axes")
    g, b = params(rng, 9)
    yield case("a single vector", call("layer_norm", rng.normal(size=9), g, b),
               probe="one vector of shape (9,)")
    g, b = params(rng, 4)
    yield case("one token", call("layer_norm", rng.normal(size=(1, 4)), g, b),
               probe="a (1, 4) sequence holding a single token")
    g, b = params(rng, 6)
    yield case("square input", call("layer_norm", rng.normal(size=(6, 6)), g, b),
               probe="a (6, 6) sequence, where reductions without keepdims still broadcast", hint=2)
    g, b = params(rng, 5)
    yield case("tiny inputs", call("layer_norm", 1e-3 * rng.normal(size=(4, 5)), g, b),
               probe="inputs of size about 1e-3, where the variance is below eps", hint=2)
    g, b = params(rng, 8)
    yield case("large inputs", call("layer_norm", 1e3 * rng.normal(size=(3, 8)), g, b),
               probe="inputs of size about 1e3, where eps hardly matters")
    g, b = params(rng, 6)
    yield case("far from zero", call("layer_norm", 1e6 + rng.normal(size=(4, 6)), g, b),
               probe="vectors around 1e6 with spread about 1: the variance must be computed "
                     "from centred values", hint=2)
    g, b = params(rng, 5)
    flat = np.repeat(rng.normal(size=(3, 1)), 5, axis=1)
    yield case("constant vectors", call("layer_norm", flat, g, b),
               probe="vectors whose entries are all equal (the answer is beta)",
               float_errors=True)
    g, b = params(rng, 3)
    yield case("custom eps", call("layer_norm", rng.normal(scale=0.4, size=(4, 3)), g, b, eps=0.1),
               probe="eps=0.1 passed by keyword", hint=2)
    g, b = params(rng, 2)
    yield case("two features", call("layer_norm", rng.normal(size=(5, 2)), g, b),
               probe="vectors of length 2, where population and sample variance differ twofold", hint=2)
    d = 10
    yield case("standardised output", call("layer_norm", rng.normal(scale=3.0, size=(4, d)),
                                           np.ones(d), np.zeros(d)),
               probe="with gamma = 1 and beta = 0, each output vector has mean 0 and "
                     "variance var / (var + eps)", check=standardised, hint=2)
