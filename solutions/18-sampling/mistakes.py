"""Known mistakes for lesson 18 (temperature, top-k and top-p, and inverse-CDF sampling)."""
import numpy as np

from grader.lessons.authoring import mistake


def raw_softmax(z):
    """A softmax without the max subtraction."""
    e = np.exp(z)
    return e / np.sum(e, axis=-1, keepdims=True)


def keep_top_p(probs, top_p, rule):
    """The boolean mask top-p keeps, by one of several rules (the right one is "before < p")."""
    desc = -np.sort(-probs, axis=-1)
    cum = np.cumsum(desc, axis=-1)
    if rule == "unsorted":                        # running total in vocabulary order
        before = np.cumsum(probs, axis=-1) - probs
        return before < top_p
    if rule == "exclude-crossing":                # keep while the total, token included, <= p
        n_keep = np.maximum(np.sum(cum <= top_p, axis=-1, keepdims=True), 1)
    elif rule == "exclude-crossing-unguarded":
        n_keep = np.sum(cum <= top_p, axis=-1, keepdims=True)
    elif rule == "one-more":                      # the crossing token counted in twice
        n_keep = np.minimum(np.sum(cum - desc < top_p, axis=-1, keepdims=True) + 1, probs.shape[-1])
    elif rule == "at-or-below":                   # a preceding mass equal to p kept too
        n_keep = np.sum(cum - desc <= top_p, axis=-1, keepdims=True)
    elif rule == "by-position":                   # the mask scattered back through the sort order
        order = np.argsort(-probs, axis=-1, kind="stable")
        keep_sorted = cum - desc < top_p
        keep = np.zeros_like(keep_sorted)
        np.put_along_axis(keep, order, keep_sorted, axis=-1)
        return keep
    else:
        n_keep = np.sum(cum - desc < top_p, axis=-1, keepdims=True)
    if rule == "exclude-crossing-unguarded":
        cutoff = np.where(n_keep > 0, np.take_along_axis(desc, np.maximum(n_keep - 1, 0), axis=-1),
                          np.inf)
    else:
        cutoff = np.take_along_axis(desc, n_keep - 1, axis=-1)
    return probs >= cutoff


def stable_softmax(z):
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def pipeline(logits, temperature, top_k, top_p, *, temp="divide", topk="ties", topp="right",
             renorm=True, stable=True, order="right", greedy="first", power=False):
    """The right computation, with one step swapped for a wrong one."""
    sm = stable_softmax if stable else raw_softmax
    if temperature == 0 and greedy != "divide":
        if greedy == "all-maxima":
            return (logits == np.max(logits, axis=-1, keepdims=True)).astype(np.float64)
        best = np.argmax(logits, axis=-1)
        return (np.arange(logits.shape[-1]) == best[..., None]).astype(np.float64)
    if temp == "multiply":
        z = logits * temperature
    elif order == "temperature-last":
        z = logits
    else:
        z = logits / temperature
    keep = np.ones(z.shape, dtype=bool)
    if top_k is not None:
        k = min(top_k, z.shape[-1]) if topk != "no-clamp" else top_k
        if topk in ("ties", "no-clamp"):
            keep &= z >= np.sort(z, axis=-1)[..., -k, None]
        elif topk == "exactly-k":
            idx = np.argsort(-z, axis=-1, kind="stable")[..., :k]
            exact = np.zeros(z.shape, dtype=bool)
            np.put_along_axis(exact, idx, True, axis=-1)
            keep &= exact
        elif topk == "k-plus-one":
            keep &= z >= np.sort(z, axis=-1)[..., -min(k + 1, z.shape[-1]), None]
    if top_p is not None:
        base = sm(z) if topp == "ignores-top-k" else sm(np.where(keep, z, -np.inf))
        keep &= keep_top_p(base, top_p, "right" if topp == "ignores-top-k" else topp)
    if order == "temperature-last":
        z = logits / temperature
    if power:                                      # the tempering done on the probabilities
        return sm(np.where(keep, logits, -np.inf)) ** (1.0 / temperature)
    if not renorm:
        return np.where(keep, sm(z), 0.0)
    return sm(np.where(keep, z, -np.inf))


@mistake("temperature-on-probabilities", hint=1, message="""\
You apply the temperature to the probabilities, `p ** (1 / T)`, and stop there. Raising every
probability to the same power does sharpen (or flatten) the distribution, but the results no longer
sum to 1. Temperature is defined on the logits: divide them by T and take the softmax, which
normalises for you. (`p ** (1 / T)` renormalised would give the same answer, but it is a detour.)""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, power=True)


@mistake("temperature-multiplies", hint=1, message="""\
You multiply the logits by the temperature instead of dividing by it, so a temperature below 1
flattens the distribution and one above 1 sharpens it: the opposite of what T means. The tempered
logits are `logits / T`: a small T stretches the gaps between logits, making the largest dominate.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, temp="multiply")


@mistake("temperature-zero-divides", hint=1, message="""\
With temperature 0 your function divides the logits by 0, which gives infinities (and NaN where a
logit is 0), and the softmax of those is NaN. Temperature 0 is the limit of ever sharper
distributions: greedy decoding, all the probability on the largest logit. Handle it first, before
any division: return a one-hot row on `np.argmax(logits, axis=-1)`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, greedy="divide")


@mistake("greedy-keeps-every-maximum", hint=3, message="""\
For temperature 0 you put a 1 on every token equal to the row's maximum, `logits == max`. When the
maximum appears twice, that row holds two 1s and sums to 2: not a distribution. Greedy decoding
picks one token; the lesson's rule (as `np.argmax` does) is the first of the tied maxima.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, greedy="all-maxima")


@mistake("softmax-without-max", hint=1, message="""\
Your softmax exponentiates the tempered logits directly. Logits near 3000 (or a small temperature)
make `np.exp` overflow to infinity, and hugely negative ones make every term 0, so the ratio is
NaN. Subtract each row's largest logit before `np.exp`, or call the given `softmax`, which does;
it also handles the -inf of removed tokens.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, stable=False)


@mistake("top-k-drops-ties", hint=2, message="""\
You keep exactly k tokens (the first k of an argsort), so when the k-th largest logit is tied with
the next one, one of the tied tokens is dropped, and which one depends on how the sort breaks ties.
The rule here keeps every token whose logit is at least the k-th largest: compare the logits with
that value, `z >= np.sort(z, axis=-1)[..., -k, None]`, and ties stay together.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topk="exactly-k")


@mistake("top-k-off-by-one", hint=2, message="""\
You keep k + 1 tokens: the threshold you compare with is the (k+1)-th largest logit, not the k-th.
With the logits sorted in increasing order the k-th largest is at index `-k`; in decreasing order it
is at index `k - 1`. Indexing with `k` in decreasing order, or `-(k + 1)`, is one step too far.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topk="k-plus-one")


@mistake("top-k-not-clamped", hint=2, message="""\
Your top-k fails when k is larger than the vocabulary: `np.sort(z)[..., -k]` does not exist for
k > V. A top_k above the number of tokens simply removes nothing; clamp it first with
`k = min(top_k, V)`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topk="no-clamp")


@mistake("top-p-drops-the-crossing-token", hint=2, message="""\
Your top-p keeps only the tokens whose running total, their own share included, stays at or below
p. Those tokens do not reach p: the token whose share makes the total reach p is part of the
nucleus and must stay. Keep a token when the mass *before* it (the running total minus its own
share) is still below p; that keeps the crossing token and always keeps at least one.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topp="exclude-crossing")


@mistake("top-p-can-keep-nothing", hint=2, message="""\
Your top-p keeps the tokens whose running total stays at or below p. When the most likely token
alone already has more than p, no token qualifies, the row is all zeros (or NaN after
renormalising). The crossing token belongs to the nucleus: keep a token when the mass before it is
still below p. The most likely token has nothing before it, so it is always kept.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topp="exclude-crossing-unguarded")


@mistake("top-p-keeps-one-more", hint=2, message="""\
Your top-p keeps one token too many: after counting the tokens whose preceding mass is below p
(which already includes the crossing token), you add one more. The nucleus is the smallest set of
most likely tokens whose mass reaches p, so it stops at the token that makes the total reach p.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topp="one-more")


@mistake("top-p-keeps-mass-equal-to-p", hint=2, message="""\
Your top-p keeps a token whose preceding mass is exactly p (`before <= top_p`). The nucleus stops at
the token that makes the total reach p: once the tokens before it hold p, it is not needed. Keep
the tokens whose preceding mass is strictly below p, `before < top_p`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topp="at-or-below")


@mistake("top-p-unsorted", hint=2, message="""\
You take the running total of the probabilities in vocabulary order, so which tokens survive
depends on their token ids rather than on how likely they are. Top-p adds up the probabilities from
the most likely token down: sort each row in decreasing order first, find the cut there, and then
apply it to the tokens in their original places (compare each probability with the cut-off one).""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topp="unsorted")


@mistake("top-p-breaks-ties-by-position", hint=3, message="""\
Your top-p marks the kept tokens in sorted order and scatters that mask back through the sort's
indices, so when the token that crosses p is tied with the next one, only one of the two is kept,
chosen by the sort. The rule here, as for top-k, keeps ties together: find the probability of the
crossing token and keep every token at least that probable, `probs >= cutoff`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topp="by-position")


@mistake("top-p-ignores-top-k", hint=3, message="""\
Your top-p measures the mass on the full softmax, as if top-k had not run. The filters apply one
after the other: top-k removes tokens, the rest are renormalised, and top-p adds up *those*
probabilities, which are larger, so fewer tokens reach p. Compute the probabilities after the top-k
mask (`probs = softmax(z)` on the filtered z), then apply top-p to them.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, topp="ignores-top-k")


@mistake("filters-before-temperature", hint=3, message="""\
You filter the raw logits and apply the temperature last. For top-k that changes nothing (dividing
by T keeps the order), but top-p adds up probabilities, and those depend on T: at a low temperature
the top tokens hold more of the mass, so fewer are needed to reach p. The order is temperature,
then top-k, then top-p.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, order="temperature-last")


@mistake("not-renormalised", hint=1, message="""\
After removing tokens you set their probabilities to 0 but leave the others as they were, so the
row sums to less than 1. A filter changes which tokens can be drawn; the survivors then share all
of the probability: divide by their total, or (simpler) set the removed logits to -inf and take the
softmax again.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature, top_k, top_p, renorm=False)


@mistake("cdf-side-left", hint=3, message="""\
When u falls exactly on a boundary of the CDF, you pick the token below it: you look for the first
entry with `cdf >= u` (what `np.searchsorted(cdf, u)` does, side="left"). Token i owns the interval
[cdf[i-1], cdf[i]), closed at the bottom, so u = cdf[i] already belongs to the next token; and with
u = 0 your rule can return a token of probability 0. Count the entries `cdf <= u`
(`searchsorted(..., side="right")`).""")
def sample(probs, u):
    cdf = np.cumsum(probs, axis=-1)
    index = np.sum(cdf < np.asarray(u)[..., None], axis=-1)
    return int(index) if index.ndim == 0 else index


@mistake("cumsum-flattens", hint=2, message="""\
`np.cumsum(probs)` without an axis flattens a batch into one long row, so the running total of
the second row starts where the first ended, far above any u. Each row has its own CDF: pass
`axis=-1`.""")
def sample(probs, u):
    cdf = np.cumsum(probs).reshape(probs.shape)
    index = np.sum(cdf <= np.asarray(u)[..., None], axis=-1)
    return int(index) if index.ndim == 0 else index


@mistake("probabilities-not-cdf", hint=2, message="""\
You compare u with the probabilities themselves rather than with their running total. The inverse
CDF splits [0, 1) into consecutive intervals, one per token, each as long as its probability: token i
covers [cdf[i-1], cdf[i]). Take `np.cumsum(probs, axis=-1)` and find the first entry above u.""")
def sample(probs, u):
    index = np.argmax(probs > np.asarray(u)[..., None], axis=-1)
    return int(index) if index.ndim == 0 else index


@mistake("returns-numpy-int", hint=2, message="""\
For a single row your `sample` returns the right token, but as a numpy integer (or a 0-d array), which
is what `np.sum`, `np.argmax` and `np.searchsorted` give. The lesson asks for a Python `int` for a
single row (and an int array only for a batch): convert the 0-d result with `int(...)`.""")
def sample(probs, u):
    cdf = np.cumsum(probs, axis=-1)
    return np.sum(cdf <= np.asarray(u)[..., None], axis=-1)


@mistake("u-not-broadcast", hint=2, message="""\
For a batch, your `sample` compares the CDF with u without a last axis of size 1 for u (or with
one in the wrong place, such as `u[:, None]` when u has two axes). u holds one number per row,
shape (...), while the CDF is (..., V): the shapes do not line up, so numpy refuses to broadcast
them or pairs the wrong numbers. Add the axis at the end: `cdf <= np.asarray(u)[..., None]`.""")
def sample(probs, u):
    cdf = np.cumsum(probs, axis=-1)
    index = np.sum(cdf <= np.asarray(u), axis=-1)
    return int(index) if index.ndim == 0 else index


@mistake("top-k-strict", hint=2, message="""\
Your top-k keeps the logits strictly above the k-th largest (`z > kth`), so the k-th token itself
is removed and only k - 1 survive. The k-th largest belongs to the top k: keep `z >= kth`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    if temperature == 0:
        return pipeline(logits, temperature, top_k, top_p)
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        z = np.where(z > np.sort(z, axis=-1)[..., -k, None], z, -np.inf)
    probs = stable_softmax(z)
    if top_p is not None:
        probs = stable_softmax(np.where(keep_top_p(probs, top_p, "right"), z, -np.inf))
    return probs


@mistake("top-k-kth-smallest", hint=2, message="""\
Your top-k threshold is the k-th SMALLEST logit: `np.sort` sorts in increasing order, so
`np.sort(z)[..., k - 1]` counts from the bottom. The k-th largest is `np.sort(z, axis=-1)[..., -k]`
(counted from the end).""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    if temperature == 0:
        return pipeline(logits, temperature, top_k, top_p)
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        z = np.where(z >= np.sort(z, axis=-1)[..., k - 1, None], z, -np.inf)
    probs = stable_softmax(z)
    if top_p is not None:
        probs = stable_softmax(np.where(keep_top_p(probs, top_p, "right"), z, -np.inf))
    return probs


@mistake("top-k-one-threshold-for-the-batch", hint=2, message="""\
Your top-k finds one k-th largest logit for the whole batch (sorting the flattened array, or with
`axis=None`), so a row whose logits are all small loses every token, and another keeps too many.
Every row has its own threshold: `np.sort(z, axis=-1)[..., -k, None]`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    if temperature == 0:
        return pipeline(logits, temperature, top_k, top_p)
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        z = np.where(z >= np.sort(z, axis=None)[-k], z, -np.inf)
    probs = stable_softmax(z)
    if top_p is not None:
        probs = stable_softmax(np.where(keep_top_p(probs, top_p, "right"), z, -np.inf))
    return probs


@mistake("temperature-zero-ignored", hint=1, message="""\
At temperature 0 you return the plain softmax of the logits: a test such as `if temperature:` (or
`temperature or 1.0`) treats 0 as "no temperature". Temperature 0 means greedy decoding: a one-hot
row on the first largest logit. Test `if temperature == 0:` first and return that one-hot row.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, temperature or 1.0, top_k, top_p)


@mistake("tiny-temperature", hint=3, message="""\
You replace temperature 0 by a tiny temperature (such as 1e-8) to avoid dividing by 0. That gives a
one-hot row, except when the largest logit is tied: the tied tokens then share the mass. Greedy
decoding picks one token, the first of the tied maxima (`np.argmax(logits, axis=-1)`), as a one-hot
row.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    return pipeline(logits, max(temperature, 1e-8), top_k, top_p)


@mistake("never-renormalised", hint=1, message="""\
You remove tokens by zeroing their probabilities in the softmax of all the tokens, and never
renormalise: after top-k the row sums to less than 1, top-p then adds up those shrunken
probabilities, and the result does not sum to 1 either. After each filter the survivors share all of
the probability: set the removed logits to -inf and take the softmax again (or divide by the total)
before top-p, and at the end.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    if temperature == 0:
        return pipeline(logits, temperature, top_k, top_p)
    z = logits / temperature
    probs = stable_softmax(z)
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        probs = np.where(z >= np.sort(z, axis=-1)[..., -k, None], probs, 0.0)
    if top_p is not None:
        desc = -np.sort(-probs, axis=-1)
        before = np.cumsum(desc, axis=-1) - desc
        n_keep = np.sum(before < top_p, axis=-1, keepdims=True)
        probs = np.where(probs >= np.take_along_axis(desc, n_keep - 1, axis=-1), probs, 0.0)
    return probs


@mistake("top-k-drops-ties-keeps-last", hint=2, message="""\
You keep exactly k tokens, the last k of an increasing argsort (`np.argsort(z)[..., -k:]`), so when
the k-th largest logit is tied with the next one, one of the tied tokens is dropped (here the one
with the smaller index). The lesson keeps every token tied with the k-th: compare with a threshold,
`z >= np.sort(z, axis=-1)[..., -k, None]`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    if temperature == 0:
        return pipeline(logits, temperature, top_k, top_p)
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        idx = np.argsort(z, axis=-1, kind="stable")[..., -k:]
        exact = np.zeros(z.shape, dtype=bool)
        np.put_along_axis(exact, idx, True, axis=-1)
        z = np.where(exact, z, -np.inf)
    probs = stable_softmax(z)
    if top_p is not None:
        probs = stable_softmax(np.where(keep_top_p(probs, top_p, "right"), z, -np.inf))
    return probs


@mistake("top-k-argpartition", hint=2, message="""\
You keep exactly k tokens with `np.argpartition`, so when the k-th largest logit is tied with the
next one, one of the tied tokens is dropped, and which one depends on how the partition happens to
order them. The lesson keeps every token tied with the k-th: compare with a threshold,
`z >= np.sort(z, axis=-1)[..., -k, None]`.""")
def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    if temperature == 0:
        return pipeline(logits, temperature, top_k, top_p)
    z = logits / temperature
    if top_k is not None:
        k = min(top_k, z.shape[-1])
        idx = np.argpartition(-z, k - 1, axis=-1)[..., :k]
        exact = np.zeros(z.shape, dtype=bool)
        np.put_along_axis(exact, idx, True, axis=-1)
        z = np.where(exact, z, -np.inf)
    probs = stable_softmax(z)
    if top_p is not None:
        probs = stable_softmax(np.where(keep_top_p(probs, top_p, "right"), z, -np.inf))
    return probs
