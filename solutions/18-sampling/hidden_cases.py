"""Hidden cases for lesson 18 (temperature, top-k and top-p, and inverse-CDF sampling)."""
import numpy as np

from grader.judge.compare import compare
from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("0 means greedy: a one-hot row on the largest logit (the first one if it is tied).",
            cases=("example 3", "temperature 0 is greedy", "temperature 0 with a tied maximum"),
            broken_by=("temperature-zero-divides", "greedy-keeps-every-maximum",
                       "temperature-zero-ignored", "tiny-temperature")),
    promise("Keep every token whose tempered logit is at least the k-th largest of its row; ties "
            "with the k-th are kept; a k above V keeps everything.",
            cases=("top-k", "ties at the k-th logit", "top-k above the vocabulary size",
                   "top-k of 1"),
            broken_by=("top-k-drops-ties", "top-k-off-by-one", "top-k-not-clamped", "top-k-strict",
                       "top-k-kth-smallest", "top-k-one-threshold-for-the-batch",
                       "top-k-drops-ties-keeps-last", "top-k-argpartition")),
    promise("Applied after top-k to the renormalised probabilities: keep every token whose "
            "preceding mass in sorted order is below p, and every token tied with the last of "
            "those.",
            cases=("top-p: the token that crosses p", "top-p below the largest probability",
                   "top-p near 1", "top-p equal to the mass before a token",
                   "ties at the top-p boundary", "top-p after top-k"),
            broken_by=("top-p-drops-the-crossing-token", "top-p-can-keep-nothing",
                       "top-p-keeps-one-more", "top-p-keeps-mass-equal-to-p", "top-p-unsorted",
                       "top-p-breaks-ties-by-position", "top-p-ignores-top-k")),
    promise("Returns: the probabilities, same shape as logits: removed tokens get exactly 0 and "
            "every row sums to 1.",
            cases=("rows sum to one after filtering", "banned tokens", "two batch dimensions"),
            broken_by=("not-renormalised", "never-renormalised")),
    promise("the number of CDF entries at or below u",
            cases=("u exactly on a CDF boundary", "a boundary before zero-probability tokens",
                   "u = 0 with zero-probability first tokens", "sample one row"),
            broken_by=("cdf-side-left", "probabilities-not-cdf")),
    promise("a Python int for a single row, an int array of shape (...) for a batch",
            cases=("sample one row", "a batch of rows", "example 9"),
            broken_by=("returns-numpy-int", "u-not-broadcast", "cumsum-flattens")),
    promise("The order is temperature, then top-k, then top-p.",
            cases=("top-p after temperature", "top-p after top-k", "temperature below 1"),
            broken_by=("filters-before-temperature", "top-p-ignores-top-k",
                       "temperature-on-probabilities", "temperature-multiplies")),
    promise("Stable for huge logits (near ±3000) and small temperatures: no overflow, no NaN.",
            cases=("huge logits", "hugely negative logits"), broken_by=("softmax-without-max",)),
)

SPEC = Spec(promises=PROMISES, 
    hint_topics=(("temperature 0", "softmax", "-inf", "huge logits", "divid", "largest", "running totals",
                  "interval", "boundary"),
                 ("threshold", "sample", "batch", "np.sort", "top-k", "top-p", "before", "cumsum", "cut-off",
                  "CDF"),
                 ("temperature", "argmax", "one-hot", "top_k", "softmax(z)", "probs >= cutoff", "cdf <= u")),
    functions=("next_token_probs", "sample"),
    no_loops=True,
    forbidden={
        "torch": "this lesson builds the filters and the sampler in numpy",
        "random": "the draw comes from the given number u, so that it can be graded: no random "
                  "generator is needed",
    },
)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def sorted_probs(z):
    """The probabilities of logits z (1-D), from most to least likely, and their running total."""
    desc = np.sort(softmax(z))[::-1]
    return desc, np.cumsum(desc)


def permuted_rows(rng, base, rows):
    """Rows that hold the same logits in different orders, each shifted by its own constant:
    their sorted probabilities are identical, so one top_p sits at the same place in every row."""
    return np.stack([rng.permutation(base) + rng.normal(scale=3.0) for _ in range(rows)])


def distinct_logits(rng, v, spread=1.5, gap=0.05):
    """v logits at least `gap` apart from each other (no accidental ties)."""
    steps = gap + rng.exponential(scale=spread, size=v)
    return rng.permutation(np.cumsum(steps) - np.sum(steps) / 2)


def dyadic_probs(rng, v, zeros=()):
    """v probabilities that are multiples of 1/64 (so every running total is exact), with zeros at
    the given positions and every other entry positive."""
    weights = np.ones(v, dtype=int)
    weights[list(zeros)] = 0
    extra = rng.multinomial(64 - weights.sum(), weights / weights.sum())
    return (weights + extra) / 64.0


def rows_sum_to_one(got, expected, calls):
    """Each row is a distribution: no NaN, entries in [0, 1], rows summing to 1, and the reference's."""
    p = np.asarray(got[0], dtype=float)
    e = np.asarray(expected[0])
    if p.shape != e.shape:
        return f"expected shape {e.shape}, got shape {p.shape}"
    if np.isnan(p).any():
        return "your probabilities contain NaN"
    sums = p.sum(axis=-1)
    if not np.allclose(sums, 1.0, rtol=0, atol=1e-9):
        return (f"each row of probabilities must sum to 1 after filtering; yours sum to values from "
                f"{sums.min():.6g} to {sums.max():.6g}: renormalise over the tokens you kept")
    if not np.allclose(p, e, rtol=1e-6, atol=1e-9):
        worst = np.unravel_index(np.argmax(np.abs(p - e)), e.shape)
        return (f"your rows sum to 1, but the values differ from the expected ones; the largest "
                f"difference is at {list(map(int, worst))}: expected {e[worst]:.6g}, got {p[worst]:.6g}")
    return None


def python_int(got, expected, calls):
    """One row gives the reference's token, as a Python int (not a numpy integer or a 0-d array)."""
    problem = compare(expected[0], got[0], 1e-6, 1e-9)
    if problem:
        return problem
    if type(got[0]) is not int:
        return (f"for a single row, sample returns a Python int; yours is the right token but a "
                f"{type(got[0]).__module__}.{type(got[0]).__name__}: convert it with int(...)")
    return None


def cases(rng):
    n = rng.normal
    # --- temperature ---
    yield case("temperature 1, a batch", call("next_token_probs", n(scale=2.0, size=(3, 11))),
               probe="logits of shape (3, 11), temperature 1, no filter: a softmax per row", hint=1)
    yield case("temperature below 1", call("next_token_probs", n(scale=1.5, size=(2, 9)), 0.6),
               probe="logits (2, 9) at temperature 0.6: sharper than the softmax", hint=1)
    yield case("temperature above 1", call("next_token_probs", n(scale=1.5, size=13), 2.5),
               probe="one row of 13 logits at temperature 2.5: flatter than the softmax", hint=1)
    yield case("two batch dimensions", call("next_token_probs", n(size=(2, 3, 6)), 0.8, top_k=4),
               probe="logits (2, 3, 6), temperature 0.8, top_k=4", hint=2)
    yield case("rows sum to one after filtering",
               call("next_token_probs", n(scale=2.0, size=(5, 10)), 1.3, top_k=6, top_p=0.7),
               probe="logits (5, 10), temperature 1.3, top_k=6, top_p=0.7: every row of the result "
                     "sums to 1: a softmax after filtering", check=rows_sum_to_one, hint=1)

    # --- temperature 0 ---
    yield case("temperature 0 is greedy", call("next_token_probs", n(size=(4, 8)), 0.0),
               probe="temperature 0 on logits (4, 8): one-hot on each row's largest logit", hint=1)
    x = n(size=(3, 7))
    for row, (i, j) in enumerate(((1, 4), (0, 6), (2, 3))):
        x[row, i] = x[row, j] = np.max(x[row]) + 0.5
    yield case("temperature 0 with a tied maximum", call("next_token_probs", x, 0.0, top_k=3),
               probe="temperature 0 where each row's largest logit appears twice: all the mass "
                     "goes to the first of them", hint=3)

    # --- stability ---
    yield case("huge logits",
               call("next_token_probs", 3000.0 + rng.uniform(-8.0, 8.0, size=(2, 8)), 1.5),
               probe="logits near 3000 at temperature 1.5, floating-point warnings raised as errors",
               float_errors=True, hint=1)
    yield case("hugely negative logits",
               call("next_token_probs", -3000.0 + rng.uniform(-8.0, 8.0, size=(3, 6)), 0.7,
                    top_p=0.8),
               probe="logits near -3000 at temperature 0.7 with top_p=0.8, floating-point warnings "
                     "raised as errors", float_errors=True, hint=1)
    x = n(scale=2.0, size=(2, 9))
    x[0, [2, 5]] = -np.inf
    x[1, 7] = -np.inf
    yield case("banned tokens", call("next_token_probs", x, 0.9, top_k=5, top_p=0.85),
               probe="some logits are -inf (banned tokens): they keep probability 0", hint=1)

    # --- top-k ---
    yield case("top-k", call("next_token_probs", n(scale=1.5, size=(3, 12)), 0.8, top_k=4),
               probe="logits (3, 12) at temperature 0.8, top_k=4", hint=2)
    x = np.stack([distinct_logits(rng, 10) for _ in range(3)])
    for row in x:   # the 3rd, 4th and (in row 0) 5th largest logits become equal
        order = np.argsort(row)[::-1]
        row[order[3]] = row[order[2]]
    x[0, np.argsort(x[0])[::-1][4]] = np.sort(x[0])[::-1][2]
    yield case("ties at the k-th logit", call("next_token_probs", x, 1.2, top_k=3),
               probe="top_k=3 where the 3rd largest logit is tied with the 4th (and the 5th in one "
                     "row): every token tied with the k-th is kept (a threshold keeps ties)", hint=2)
    yield case("top-k above the vocabulary size", call("next_token_probs", n(size=(2, 7)), top_k=20),
               probe="top_k=20 with only 7 tokens: nothing is removed", hint=2)
    yield case("top-k of 1", call("next_token_probs", distinct_logits(rng, 9), 0.7, top_k=1),
               probe="top_k=1: all the mass on the largest logit", hint=2)

    # --- top-p ---
    base = distinct_logits(rng, 10, spread=0.8)
    desc, cum = sorted_probs(base / 0.9)
    p = cum[2] + 0.5 * desc[3]                       # the 4th token is the one that crosses p
    yield case("top-p: the token that crosses p",
               call("next_token_probs", permuted_rows(rng, base, 3), 0.9, top_p=p),
               probe="a top_p that the 4 most likely tokens reach but the first 3 do not (rows in "
                     "different orders): the 4th token is kept, the 5th is not", hint=2)
    base = distinct_logits(rng, 8, spread=1.0)
    desc, cum = sorted_probs(base)
    yield case("top-p below the largest probability",
               call("next_token_probs", permuted_rows(rng, base, 2), top_p=0.5 * desc[0]),
               probe="a top_p smaller than the most likely token's probability: that token alone "
                     "is kept", hint=2)
    base = distinct_logits(rng, 11, spread=0.7)
    desc, cum = sorted_probs(base)
    yield case("top-p near 1", call("next_token_probs", base, top_p=cum[-2] + 0.5 * desc[-1]),
               probe="a top_p that only all 11 tokens together reach: nothing is removed", hint=2)

    # top-p equal to a running total: the token whose preceding mass equals p is not kept (the
    # mass before it is not below p); drawn until every way of summing the mass agrees exactly,
    # and that mass rounded to float32 falls below p (so a float32 running total keeps the token)
    while True:
        base = distinct_logits(rng, 8, spread=0.8)
        desc, cum = sorted_probs(base)
        if cum[2] == cum[3] - desc[3] == desc[0] + desc[1] + desc[2] > np.float32(cum[2]):
            break
    yield case("top-p equal to the mass before a token",
               call("next_token_probs", base, top_p=cum[2]),
               probe="a top_p exactly equal to the mass of the 3 most likely tokens: the 4th token's "
                     "preceding mass is not below p, so it is removed", hint=2)

    # top-p ties: the token that crosses p is tied with the next one
    base = distinct_logits(rng, 9, spread=0.8)
    order = np.argsort(base)[::-1]
    base[order[3]] = base[order[2]]
    desc, cum = sorted_probs(base)
    yield case("ties at the top-p boundary",
               call("next_token_probs", permuted_rows(rng, base, 2), top_p=cum[1] + 0.5 * desc[2]),
               probe="the token that makes the total reach top_p is tied with the next one: both "
                     "are kept", hint=2)

    # top-p after top-k: p is measured on the distribution that top-k left
    while True:
        base = np.concatenate([1.0 + 0.5 * rng.random(4), 0.5 * rng.random(11)])
        kept = np.sort(base)[::-1][:4]
        desc_k, cum_k = sorted_probs(kept)
        desc_full, cum_full = sorted_probs(base)
        low = max(cum_k[0], cum_full[1])
        if cum_k[1] - low > 1e-3:
            break
    p = (low + cum_k[1]) / 2          # top-k's survivors need 2 tokens, the full softmax more
    yield case("top-p after top-k",
               call("next_token_probs", permuted_rows(rng, base, 2), top_k=4, top_p=p),
               probe="top_k=4 then top_p: the mass top_p measures is that of the 4 survivors, "
                     "renormalised (2 tokens reach it, where the full softmax would need more)",
               hint=3)

    # top-p after temperature: the tempered probabilities decide the set
    while True:
        base = distinct_logits(rng, 9, spread=1.0)
        desc_t, cum_t = sorted_probs(base / 0.5)
        desc_1, cum_1 = sorted_probs(base)
        low = max(cum_t[0], cum_1[1])
        if cum_t[1] - low > 1e-3:
            break
    p = (low + cum_t[1]) / 2
    yield case("top-p after temperature",
               call("next_token_probs", permuted_rows(rng, base, 2), 0.5, top_p=p),
               probe="temperature 0.5 then top_p: the probabilities top_p sorts are the tempered "
                     "ones (2 tokens reach it, the untempered softmax would need more)", hint=3)

    # --- sample ---
    yield case("sample one row", call("sample", softmax(n(scale=1.5, size=9)), float(rng.uniform(0.1, 0.9))),
               probe="one row of 9 probabilities and a uniform number u: a Python int", check=python_int,
               hint=2)
    probs = dyadic_probs(rng, 8)
    j = int(rng.integers(1, 6))
    yield case("u exactly on a CDF boundary", call("sample", probs, float(np.cumsum(probs)[j])),
               probe="u equal to cdf[i] exactly (probabilities that are multiples of 1/64): the "
                     "token after i is drawn, since token i covers [cdf[i-1], cdf[i])",
               check=python_int, hint=1)
    probs = dyadic_probs(rng, 7, zeros=(0, 1))
    yield case("u = 0 with zero-probability first tokens", call("sample", probs, 0.0),
               probe="u = 0 while tokens 0 and 1 have probability 0: a token with probability 0 "
                     "is never drawn (its interval is empty)", check=python_int, hint=1)
    probs = dyadic_probs(rng, 8, zeros=(3, 4))
    yield case("a boundary before zero-probability tokens",
               call("sample", probs, float(np.cumsum(probs)[2])),
               probe="u equal to cdf[2] exactly, where tokens 3 and 4 have probability 0: token 5 "
                     "is drawn", check=python_int, hint=1)
    probs = softmax(n(size=6))
    yield case("u close to 1", call("sample", probs, float(1.0 - 0.5 * probs[-1])),
               probe="u inside the last token's interval, close to 1: the last token",
               check=python_int, hint=1)
    probs = softmax(n(scale=2.0, size=(3, 4, 7)))
    yield case("a batch of rows", call("sample", probs, rng.uniform(0.05, 0.95, size=(3, 4))),
               probe="probabilities (3, 4, 7) and u of shape (3, 4), one number per row", hint=2)
    probs = np.stack([dyadic_probs(rng, 6, zeros=(z,)) for z in (1, 4)])
    u = np.array([np.cumsum(probs[0])[0], np.cumsum(probs[1])[2]])
    yield case("a batch with u on boundaries", call("sample", probs, u),
               probe="two rows of 6 probabilities, each u exactly on a CDF boundary", hint=1)
