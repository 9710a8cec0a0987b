"""Hidden cases for lesson 06 (RMSNorm)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("x: a float64 array of shape (..., D): a single vector, a (T, D) sequence, a (B, T, D) "
            "batch, or more leading axes.",
            cases=("a single vector", "random sequence", "batched 3-D input", "four axes"),
            broken_by=("wrong-axis", "no-keepdims", "whole-array-mean-square")),
    promise("eps: the number added to the mean square inside the square root.",
            cases=("example 5", "custom eps", "an all-zero vector"),
            broken_by=("eps-outside-sqrt", "no-eps", "hardcoded-eps", "hardcoded-eps-1e-6",
                       "eps-added-to-output")),
    promise("x / sqrt(mean(x**2) + eps) * gamma, the mean taken over the last axis of each vector",
            cases=("example 2", "random sequence", "unit root mean square"),
            broken_by=("no-sqrt", "sum-of-squares", "forgot-gamma", "mean-absolute-value",
                       "square-of-mean", "one-plus-gamma", "multiplies-by-rms",
                       "mean-square-over-len")),
    promise("Normalise along the last axis only, whatever the number of leading axes.",
            cases=("square input", "four axes", "example 3"), broken_by=("wrong-axis",)),
    promise("Do not subtract the mean.", cases=("vectors with a large mean", "example 1"),
            broken_by=("subtracts-mean", "divides-by-std")),
    promise("Leave x unchanged.", cases=("random sequence",),
            broken_by=(edit("    x_hat = x / np.sqrt(mean_square + eps)",
                            "    x /= np.sqrt(mean_square + eps)\n    x_hat = x"),)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("without the mean", "mean", "last axis"), ("mean square", "keepdims", "eps", "square root"), ("* gamma",)),
            functions=("rmsnorm",),
            forbidden={"rms_norm": "write the normalisation yourself, without a library's RMSNorm",
                       "RMSNorm": "write the normalisation yourself, without a library's RMSNorm"})


def gains(rng, d):
    """Distinct, non-unit gains (some negative), as a trained model has."""
    return rng.normal(loc=1.0, scale=0.6, size=d)


def unit_rms(got, expected, calls):
    """With gamma = 1, every output vector has RMS sqrt(ms / (ms + eps)), just under 1."""
    x, out = calls[0].args[0], np.asarray(got[0])
    if out.shape != x.shape:
        return f"expected shape {x.shape}, got shape {out.shape}"
    ms = np.mean(x ** 2, axis=-1)
    want, have = np.sqrt(ms / (ms + 1e-5)), np.sqrt(np.mean(out ** 2, axis=-1))
    if not np.allclose(have, want, rtol=1e-6, atol=1e-9):
        worst = np.argmax(np.abs(have - want))
        return (f"with gamma = 1 each output vector should have root mean square just under 1; one "
                f"of yours has {have.flat[worst]:.6g} where {want.flat[worst]:.6g} was expected")
    if not np.allclose(np.sign(out), np.sign(x)):
        return "RMSNorm only rescales each vector: every output entry keeps the sign of its input"
    return None


def scale_free(got, expected, calls):
    """Multiplying a vector by 100 leaves the output almost unchanged (eps aside)."""
    small, big = (np.asarray(g) for g in got)
    if small.shape != big.shape or small.shape != calls[0].args[0].shape:
        return f"expected shape {calls[0].args[0].shape} for both calls"
    if not np.allclose(big, small, rtol=1e-4, atol=1e-9):
        return ("x and 100 * x should normalise to (almost) the same output, since the RMS grows "
                "a hundredfold too; yours differ")
    return next((f"call {i + 1}: output differs from the reference" for i, (g, e)
                 in enumerate(zip(got, expected)) if not np.allclose(g, e, rtol=1e-6, atol=1e-9)), None)


def cases(rng):
    yield case("random sequence", call("rmsnorm", rng.normal(size=(5, 7)), gains(rng, 7)),
               probe="a (5, 7) sequence of real-valued vectors with distinct gains")
    yield case("batched 3-D input",
               call("rmsnorm", rng.normal(scale=2.0, size=(2, 3, 6)), gains(rng, 6)),
               probe="a (2, 3, 6) batch: normalise along the last axis only", hint=1)
    yield case("four axes", call("rmsnorm", rng.normal(size=(3, 2, 4, 5)), gains(rng, 5)),
               probe="a (3, 2, 4, 5) array: any number of leading axes")
    yield case("a single vector", call("rmsnorm", rng.normal(size=9), gains(rng, 9)),
               probe="one vector of shape (9,)")
    yield case("one token", call("rmsnorm", rng.normal(size=(1, 4)), gains(rng, 4)),
               probe="a (1, 4) sequence holding a single token")
    yield case("square input", call("rmsnorm", rng.normal(size=(6, 6)), gains(rng, 6)),
               probe="a (6, 6) sequence, where a reduction without keepdims still broadcasts", hint=2)
    yield case("vectors with a large mean",
               call("rmsnorm", 3.0 + rng.normal(scale=0.5, size=(4, 5)), gains(rng, 5)),
               probe="vectors whose entries are mostly positive: RMSNorm keeps the mean", hint=1)
    yield case("tiny inputs", call("rmsnorm", 1e-3 * rng.normal(size=(4, 5)), gains(rng, 5)),
               probe="inputs of size about 1e-3, where the mean square is below eps", hint=2)
    yield case("large inputs", call("rmsnorm", 1e3 * rng.normal(size=(3, 8)), gains(rng, 8)),
               probe="inputs of size about 1e3, where eps hardly matters")
    x = rng.normal(size=(3, 6))
    x[1] = 0.0
    yield case("an all-zero vector", call("rmsnorm", x, gains(rng, 6)),
               probe="one vector of zeros among others (its output is zeros; eps keeps it finite)", float_errors=True, hint=2)
    yield case("custom eps", call("rmsnorm", rng.normal(scale=0.4, size=(4, 3)), gains(rng, 3), eps=0.1),
               probe="eps=0.1 passed by keyword", hint=2)
    yield case("long vectors", call("rmsnorm", rng.normal(size=(2, 40)), gains(rng, 40)),
               probe="vectors of length 40: the mean square, not a sum of squares", hint=2)
    d = 10
    yield case("unit root mean square", call("rmsnorm", rng.normal(scale=3.0, size=(4, d)), np.ones(d)),
               probe="with gamma = 1, each output vector has RMS just under 1 and keeps its signs",
               check=unit_rms, hint=2)
    x, g = rng.normal(size=(3, 7)), gains(rng, 7)
    yield case("scale invariance", call("rmsnorm", x, g), call("rmsnorm", 100.0 * x, g),
               probe="x and 100 * x give (almost) the same output", check=scale_free)
