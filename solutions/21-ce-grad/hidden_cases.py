"""Hidden cases for lesson 21 (the cross-entropy loss and its gradient, by hand)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("ignore_index: the target value of rows to leave out (any int: -100, -1, or a real "
            "class such as a padding token's id).",
            cases=("some rows ignored", "all ignored but one", "a class index as ignore_index",
                   "ignore_index -1"),
            broken_by=("ignore-index-hardcoded", "ignore-index-hardcoded-indexed",
                       "ignored-targets-used-as-indices", "ignored-rows-in-the-loss")),
    promise(r"loss a float, the mean over the kept rows of $-\log \mathrm{softmax}(z_i)_{t_i}$",
            cases=("example 1", "a batch, nothing ignored", "some rows ignored", "one row"),
            broken_by=("loss-not-divided", "divides-by-all-rows", "mean-over-entries",
                       "softmax-over-the-batch", "picked-logits-matrix", "sum-not-mean")),
    promise("grad an array (N, V), the gradient of loss with respect to logits, zero in the ignored "
            "rows.",
            cases=("gradient matches finite differences", "a batch, nothing ignored",
                   "some rows ignored"),
            broken_by=("grad-not-divided", "grad-sign-flipped", "ignored-rows-not-zeroed",
                       "one-hot-indices-swapped", "grad-divided-by-all-rows",
                       "ignored-rows-kept-in-grad", "grad-softmax-over-the-batch")),
    promise(r"Stable: logits near $\pm 1000$, and targets whose logit is 1000 below the row's best, "
            "give finite answers with no floating-point warning.",
            cases=("huge logits", "hugely negative logits", "rows far apart",
                   "a target far below the best logit"),
            broken_by=("exp-without-max", "grad-softmax-unstable", "log-of-softmax",
                       edit("np.max(logits, axis=-1, keepdims=True)", "np.max(logits, keepdims=True)"))),
)

SPEC = Spec(promises=PROMISES, 
    hint_topics=(("one row", "rows", "batch", "gradient", "softmax", "one-hot", "mean",
                  "divided by the same number"),
                 ("keep", "ignore", "np.where(keep, targets, 0)", "stably", "z - m", "log-prob", "keep[:, None]", "indices"), ("one_hot", "exp(log_probs)", "/ n", "arange(N)", "log_probs", "axis=-1")),
    functions=("ce_loss_and_grad",),
    no_loops=True,
    forbidden={"torch": "this lesson derives the gradient by hand in numpy, without autograd"},
)

STEP = 1e-5


def targets_with(rng, n, v, ignored, ignore_index=-100):
    """Random classes for n rows, with the rows in `ignored` set to ignore_index."""
    t = rng.integers(0, v, size=n)
    t[list(ignored)] = ignore_index
    return t


def ce(rng, n, v, n_ignored=0, scale=1.5, ignore_index=None):
    logits = rng.normal(scale=scale, size=(n, v))
    ignored = rng.choice(n, size=n_ignored, replace=False)
    kwargs = {} if ignore_index is None else {"ignore_index": ignore_index}
    t = targets_with(rng, n, v, ignored, -100 if ignore_index is None else ignore_index)
    return call("ce_loss_and_grad", logits, t, **kwargs)


def shifted(c, i, j, h):
    logits = c.args[0].copy()
    logits[i, j] += h
    return call("ce_loss_and_grad", logits, *c.args[1:], **c.kwargs)


def rounding_noise(got, expected, grad, n, i, j):
    """Whether the disagreement is the loss's own rounding: the gradient matches finite
    differences of the expected losses, and every loss of the learner's is off the expected one by
    no more than float32's rounding (about 7 significant digits)."""
    reference = (float(expected[1 + 2 * n][0]) - float(expected[2 + 2 * n][0])) / (2 * STEP)
    return bool(np.isclose(grad[i, j], reference, rtol=1e-4, atol=1e-6)) and all(
        abs(float(g[0]) - float(e[0])) <= 2e-5 * abs(float(e[0])) for g, e in zip(got, expected))


def finite_differences(entries):
    """A check: the gradient matches central differences of the learner's own loss at `entries`,
    then both outputs match the reference's."""
    def check(got, expected, calls):
        loss, grad = got[0]
        grad = np.asarray(grad, dtype=float)
        if grad.shape != np.shape(expected[0][1]):
            return f"expected a gradient of shape {np.shape(expected[0][1])}, got {grad.shape}"
        for n, (i, j) in enumerate(entries):
            up, down = float(got[1 + 2 * n][0]), float(got[2 + 2 * n][0])
            numeric = (up - down) / (2 * STEP)
            if not np.isclose(grad[i, j], numeric, rtol=1e-5, atol=1e-7):
                if rounding_noise(got, expected, grad, n, i, j):
                    return (f"your gradient is right, and your loss carries rounding noise: it "
                            "agrees with the expected one to only about 7 significant digits, "
                            "float32's precision, and nudging a logit by "
                            f"+-{STEP:g} changes it by little more than that noise, so finite "
                            "differences of it disagree with your gradient. Compute the loss in "
                            "float64 (no float32 arrays along the way), as the lesson does")
                return (f"your gradient disagrees with your own loss: at entry [{i}, {j}] it is "
                        f"{grad[i, j]:.6g}, but nudging that logit by +-{STEP:g} changes your loss "
                        f"at a rate of {numeric:.6g}")
        for name, g, e in (("loss", loss, expected[0][0]), ("gradient", grad, expected[0][1])):
            if not np.allclose(np.asarray(g, dtype=float), e, rtol=1e-6, atol=1e-9):
                return (f"your gradient matches finite differences of your loss, but the {name} "
                        "is not the expected one")
        return None
    return check


def cases(rng):
    yield case("a batch, nothing ignored", ce(rng, 6, 9),
               probe="logits (6, 9) and 6 targets, none ignored", hint=1)
    yield case("some rows ignored", ce(rng, 8, 5, n_ignored=3),
               probe="logits (8, 5), 3 of the 8 targets are -100", hint=1)
    yield case("more rows than classes", ce(rng, 12, 4, n_ignored=2),
               probe="logits (12, 4), 2 targets ignored", hint=2)
    yield case("one row", ce(rng, 1, 7),
               probe="a single example: logits (1, 7)", hint=1)
    yield case("all ignored but one", ce(rng, 5, 7, n_ignored=4),
               probe="4 of 5 targets are -100: the mean is over 1 row", hint=1)
    logits = rng.normal(scale=1.5, size=(7, 6))
    t = rng.integers(1, 6, size=7)
    t[rng.choice(7, size=3, replace=False)] = 0
    yield case("a class index as ignore_index", call("ce_loss_and_grad", logits, t, ignore_index=0),
               probe="ignore_index=0 (class 0 is the padding token): 3 of 7 rows ignored", hint=2)
    yield case("ignore_index -1", ce(rng, 6, 8, n_ignored=2, ignore_index=-1),
               probe="ignore_index=-1, 2 of 6 rows ignored (-1 would index the last class)",
               hint=2)
    yield case("confident logits", ce(rng, 5, 6, n_ignored=1, scale=6.0),
               probe="logits spread over +-15: probabilities close to 0 and 1, log-probabilities far "
                     "below 0", hint=2)
    yield case("huge logits",
               call("ce_loss_and_grad", 1000.0 + rng.uniform(-8.0, 8.0, size=(4, 6)),
                    targets_with(rng, 4, 6, [2])),
               probe="logits near 1000 (z - m keeps exp from overflowing), floating-point warnings "
                     "raised as errors", float_errors=True,
               hint=2)
    yield case("hugely negative logits",
               call("ce_loss_and_grad", -1000.0 + rng.uniform(-8.0, 8.0, size=(5, 4)),
                    targets_with(rng, 5, 4, [0])),
               probe="logits near -1000 (z - m keeps exp from underflowing), floating-point warnings "
                     "raised as errors", float_errors=True,
               hint=2)
    logits = rng.uniform(-8.0, 8.0, size=(4, 5)) + np.array([[1000.0], [-1000.0], [0.0], [1000.0]])
    yield case("rows far apart",
               call("ce_loss_and_grad", logits, targets_with(rng, 4, 5, [])),
               probe="rows near 1000, near -1000 and near 0 in one batch: each row needs its own "
                     "maximum (z - m per row), floating-point warnings raised as errors",
               float_errors=True, hint=2)
    logits = rng.normal(size=(4, 7))
    t = targets_with(rng, 4, 7, [3])
    for i in (0, 2):      # the target's logit sits 1000 below the row's best: its probability is 0.0
        logits[i, t[i]] = np.max(np.delete(logits[i], t[i])) - 1000.0
    yield case("a target far below the best logit", call("ce_loss_and_grad", logits, t),
               probe="in two rows the target's logit is 1000 below the largest, so its probability "
                     "rounds to 0 but its log-probability, and its loss (about 1000), is finite; "
                     "floating-point warnings raised as errors", float_errors=True, hint=2)

    base = ce(rng, 4, 6)
    base.args[1][2] = -100
    entries = [(0, int(base.args[1][0])), (0, (int(base.args[1][0]) + 1) % 6), (1, 3), (2, 1),
               (3, int(base.args[1][3])), (3, 5)]
    calls = [base] + [shifted(base, i, j, h) for i, j in entries for h in (STEP, -STEP)]
    yield case("gradient matches finite differences", *calls,
               probe="logits (4, 6) with row 2 ignored; the gradient at 6 entries (targets, other "
                     "classes, and the ignored row) against central differences of your own loss",
               check=finite_differences(entries), hint=1)
