"""Hidden cases for lesson 04 (a sigmoid that never overflows, and GELU in its tanh form)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("a 0-d array included", cases=("example 3", "sigmoid of a 0-d array", "gelu of a 0-d array"),
            broken_by=(edit("np.tanh(0.5 * z)", "np.tanh(0.5 * np.atleast_1d(z))"), "erf-gelu")),
    promise("1 / (1 + exp(-z)) elementwise, computed without any overflow",
            cases=("sigmoid of a 2-D array", "sigmoid(z) + sigmoid(-z) = 1",
                   "sigmoid of huge positive z", "sigmoid of huge negative z"),
            broken_by=("abs-without-branch", "half-not-distributed", "where-both-branches")),
    promise("0.5 * z * (1 + tanh(sqrt(2/pi) * (z + 0.044715 * z**3))) elementwise",
            cases=("example 4", "gelu of a 1-D array", "gelu near |z| = 2", "gelu of large |z|"),
            broken_by=("squared-not-cubed", "sqrt-two-over-pi", "sqrt-two-pi",
                       "no-cubic-term", "gate-only", "scale-only-z", "gate-parentheses",
                       "caret-power", "gelu-overflowing-sigmoid")),
    promise("sigmoid raises no floating-point warnings, even for z = +-1000",
            cases=("example 2", "sigmoid from -1000 to 1000", "sigmoid of large z, quietly"),
            broken_by=("exp-ratio", "reciprocal-overflow")),
    promise("gelu is the tanh form above, not the exact erf form.",
            cases=("gelu near |z| = 2", "gelu of small z"), broken_by=("erf-gelu", "sigmoid-gelu")),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("overflow", "bounded", "huge"), ("tanh", "z / 2", "sqrt", "power is 3", "gelu"), ("0.5 * z", "inner")),
            functions=("sigmoid", "gelu"))


def halves_sum_to_one(got, expected, calls):
    """sigma(z) + sigma(-z) = 1 everywhere."""
    a, b = (np.asarray(g, dtype=float) for g in got)
    if a.shape != expected[0].shape or b.shape != expected[1].shape:
        return f"expected shape {expected[0].shape}, got shapes {a.shape} and {b.shape}"
    with np.errstate(invalid="ignore"):
        total = a + b
        if not np.allclose(total, 1.0, rtol=0, atol=1e-9):
            worst = np.nanargmax(np.abs(total - 1.0)) if np.isfinite(total).any() else 0
            return ("sigmoid(z) + sigmoid(-z) should be 1 for every z; yours gives "
                    f"{total.flat[worst]:.6g} at z = {calls[0].args[0].flat[worst]:.6g}")
    if not np.allclose(a, expected[0], rtol=1e-6, atol=1e-9):
        return "sigmoid(z) + sigmoid(-z) is 1, but the values themselves are not the expected ones"
    return None


def cases(rng):
    n = rng.normal
    yield case("sigmoid of a 2-D array", call("sigmoid", n(scale=3.0, size=(4, 7))),
               probe="a (4, 7) array of values between about -10 and 10")
    yield case("sigmoid of a 3-D array", call("sigmoid", n(scale=5.0, size=(2, 3, 5))),
               probe="a (2, 3, 5) array")
    yield case("sigmoid of a 0-d array", call("sigmoid", np.array(n(scale=2.0))),
               probe="a single number held in a 0-d array")
    yield case("sigmoid of a length-1 array", call("sigmoid", n(scale=2.0, size=(1,))),
               probe="an array of shape (1,)")
    yield case("sigmoid of huge positive z",
               call("sigmoid", 1000.0 + np.abs(n(scale=200.0, size=(2, 4)))),
               probe="z of 1000 and more, floating-point warnings raised as errors",
               float_errors=True, hint=1)
    yield case("sigmoid of huge negative z",
               call("sigmoid", -1000.0 - np.abs(n(scale=200.0, size=(3, 2)))),
               probe="z of -1000 and less, floating-point warnings raised as errors",
               float_errors=True, hint=1)
    yield case("sigmoid from -1000 to 1000",
               call("sigmoid", np.array([-1000.0, -750.5, -36.2, -0.3, 0.0, 0.8, 41.7, 720.1, 1000.0])),
               probe="values from -1000 to 1000 in one array, where exp overflows, floating-point warnings raised as errors",
               float_errors=True, hint=1)
    yield case("sigmoid of large z, quietly",
               call("sigmoid", np.array([[-805.3, 3.1], [712.4, 900.6]])),
               probe="|z| between 700 and 1000, without warnings raised: after an overflow, does the result stay finite?",
               hint=1)
    z = n(scale=10.0, size=(3, 6))
    yield case("sigmoid(z) + sigmoid(-z) = 1",
               call("sigmoid", z), call("sigmoid", -z),
               probe="sigmoid(z) and sigmoid(-z) for the same (3, 6) array add up to 1",
               check=halves_sum_to_one)
    yield case("gelu of a 1-D array", call("gelu", n(scale=2.0, size=(9,))),
               probe="nine values spread between about -5 and 5", hint=2)
    yield case("gelu of a 3-D array", call("gelu", n(scale=2.5, size=(2, 3, 4))),
               probe="a (2, 3, 4) array", hint=2)
    yield case("gelu of a 0-d array", call("gelu", np.array(1.0 + abs(n()))),
               probe="a single positive number held in a 0-d array")
    yield case("gelu near |z| = 2",
               call("gelu", np.array([-2.7, -2.1, -1.6, 1.4, 1.9, 2.6]) + n(scale=0.05, size=6)),
               probe="values around |z| = 2, where the tanh form and the exact (erf) GELU differ "
                     "by about 1e-4", hint=2)
    yield case("gelu of large |z|",
               call("gelu", np.array([-1000.0, -210.4, -47.9, -31.5, 33.3, 88.8, 1000.0])),
               probe="|z| from 30 to 1000, floating-point warnings raised as errors",
               float_errors=True, hint=2)
    yield case("gelu of small z", call("gelu", n(scale=0.1, size=(2, 5))),
               probe="values near 0, where GELU is close to z / 2")
