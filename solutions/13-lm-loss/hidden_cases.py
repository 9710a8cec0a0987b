"""Hidden cases for lesson 13 (the language-modelling loss)."""
import numpy as np
import torch

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("logits[b, t] scores the token that comes after position t, which is ids[b, t + 1].",
            cases=("example 1", "a batch, every target kept", "one long sequence"),
            broken_by=("no-shift", "shift-backwards", "shifted-twice", "both-cut-at-the-front")),
    promise("ignore_index: targets equal to it are skipped.",
            cases=("padding at the end", "ignored targets here and there",
                   "a prompt that is not trained on"),
            broken_by=("ignore-index-unused", "gathered-before-masking", "ignored-in-the-sum",
                       "ignored-targets-overwritten", "mask-from-inputs",
                       "mask-from-inputs-clamped")),
    promise("but it may be a real token id (a padding token), which must then be skipped too.",
            cases=("a padding token with a real id", "ignore_index=-1", "example 3"),
            broken_by=("hardcoded-minus-100", "keep-by-sign")),
    promise(r"the mean of $-\log \mathrm{softmax}(z_{b,t})[\mathrm{ids}_{b,t+1}]$ over the kept "
            "targets", cases=("a batch, every target kept", "padding at the end", "example 2"),
            broken_by=("ignored-in-the-count", "divided-by-b-times-t", "sum-not-mean",
                       "mean-of-sequence-means", "no-minus-sign", "logsumexp-over-time",
                       "maximum-not-added-back")),
    promise("Stable for any logits: the result must be finite for logits around 1e4, where exp "
            "alone overflows, and for a target whose probability is far too small to store.",
            cases=("huge logits", "targets far below the best", "one position far below the others",
                   "example 4"),
            broken_by=("exp-overflow", "log-of-softmax", "batch-maximum")),
    promise("Return a tensor, not a Python float", cases=("example 1",),
            broken_by=("returns-float",)),
    promise("Leave logits and ids unchanged.", cases=("ignored targets here and there",),
            broken_by=(edit("    targets = ids[:, 1:]",
                            "    targets = ids[:, 1:]\n    ids[:, 0] = 0"),)),
)

SPEC = Spec(promises=PROMISES, 
    hint_topics=(("logits[:, :-1]", "ids[:, 1:]", "target", "ignore_index"), ("log-sum-exp", "maximum", "last", "gather", "safe", "torch.where(keep, targets, 0)", "ignored", "valid"), ("keep.sum()", "return", "logits[:, :-1]")),
    functions=("lm_loss",),
    forbidden={
        "cross_entropy": "this lesson builds the cross-entropy from log-sum-exp; F.cross_entropy is "
                         "what your answer is checked against",
        "CrossEntropyLoss": "this lesson builds the cross-entropy from log-sum-exp; it is what your "
                            "answer is checked against",
        "nll_loss": "this lesson builds the loss itself, picking each target's log-probability",
        "NLLLoss": "this lesson builds the loss itself, picking each target's log-probability",
        "log_softmax": "this lesson builds the stable log-sum-exp that log_softmax hides",
    },
)

IGNORE = -100


def tensor(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def random_logits(rng, b, t, v, scale=2.0):
    return rng.normal(scale=scale, size=(b, t, v))


def random_ids(rng, b, t, v, low=0):
    return rng.integers(low, v, size=(b, t)).astype(np.int64)


def loss(logits, ids, **kwargs):
    return call("lm_loss", tensor(logits), tensor(ids), **kwargs)


def cases(rng):
    yield case("a batch, every target kept", loss(random_logits(rng, 3, 6, 7), random_ids(rng, 3, 6, 7)),
               probe="logits (3, 6, 7), ids (3, 6), no target ignored", hint=1)
    yield case("one long sequence", loss(random_logits(rng, 1, 11, 5), random_ids(rng, 1, 11, 5)),
               probe="B=1: logits (1, 11, 5), ids (1, 11), no target ignored", hint=1)
    yield case("one target per sequence", loss(random_logits(rng, 4, 2, 9), random_ids(rng, 4, 2, 9)),
               probe="T=2: each of 4 sequences has a single target, ids[:, 1]", hint=1)
    yield case("a large vocabulary", loss(random_logits(rng, 2, 5, 60, scale=3.0), random_ids(rng, 2, 5, 60)),
               probe="logits (2, 5, 60): a vocabulary larger than B * T")

    ids = random_ids(rng, 4, 8, 9)
    for row, length in enumerate([8, 6, 3, 5]):      # real tokens per row; the rest is padding
        ids[row, length:] = IGNORE
    yield case("padding at the end", loss(random_logits(rng, 4, 8, 9), ids),
               probe="ids (4, 8) whose rows end in -100 padding after 8, 6, 3 and 5 real tokens, so "
                     "the rows keep 7, 5, 2 and 4 targets", hint=1)

    ids = random_ids(rng, 3, 9, 6)
    ids[:, 1:][rng.random((3, 8)) < 0.35] = IGNORE
    ids[:, 2], ids[0, 4], ids[1, 7] = IGNORE, IGNORE, IGNORE    # ignored targets in every row
    ids[:, 1] = random_ids(rng, 3, 1, 6)[:, 0]                  # and kept ones
    yield case("ignored targets here and there", loss(random_logits(rng, 3, 9, 6), ids),
               probe="ids (3, 9) with -100 at scattered targets in every row", hint=2)

    ids = random_ids(rng, 2, 10, 8)
    ids[0, :4], ids[1, :6] = IGNORE, IGNORE                    # prompts the model is not trained on
    yield case("a prompt that is not trained on", loss(random_logits(rng, 2, 10, 8), ids),
               probe="ids (2, 10) whose first 4 and 6 tokens are -100 (a prompt): only the answers' "
                     "targets count", hint=1)

    ids = random_ids(rng, 3, 7, 6, low=1)                      # real tokens never use id 0 ...
    ids[0, 5:], ids[2, 3:] = 0, 0                              # ... so 0 can mark padding
    yield case("a padding token with a real id", loss(random_logits(rng, 3, 7, 6), ids, ignore_index=0),
               probe="ignore_index=0: token 0 pads the ends of two rows and must be skipped", hint=1)

    logits = 1e4 + rng.uniform(-50.0, 50.0, size=(2, 5, 6))   # every exp(logit) overflows float64
    ids = random_ids(rng, 2, 5, 6)
    ids[1, 3] = IGNORE
    yield case("huge logits", loss(logits, ids),
               probe="logits between 9950 and 10050 (e^9950 overflows float64 unless the maximum is taken out), "
                     "with one -100 target",
               hint=2)

    logits, ids = random_logits(rng, 3, 4, 7), random_ids(rng, 3, 4, 7)
    for b, t in np.ndindex(3, 3):
        if b == 0 or t == 1:      # these targets get a logit 1000 to 1050 below their row's best
            logits[b, t, ids[b, t + 1]] = logits[b, t].max() - rng.uniform(1000.0, 1050.0)
    yield case("targets far below the best", loss(logits, ids),
               probe="ordinary logits, but some targets score over 1000 below the best token of "
                     "their row: their probability, below e^-1000, is stored as 0, so the loss must come from log-sum-exp", hint=2)

    ids = random_ids(rng, 2, 6, 7)
    ids[0, 2], ids[1, 4:] = -1, -1
    yield case("ignore_index=-1", loss(random_logits(rng, 2, 6, 7), ids, ignore_index=-1),
               probe="ignore_index=-1 (nanoGPT's choice): targets equal to -1 are skipped; no -100 "
                     "anywhere", hint=1)

    logits, ids = random_logits(rng, 3, 5, 6), random_ids(rng, 3, 5, 6)
    logits[1, 2] -= 2000.0     # one position whose every logit sits 2000 below the rest of the batch
    yield case("one position far below the others", loss(logits, ids),
               probe="ordinary logits, except at one position where all 6 are about 2000 lower: "
                     "the maximum taken out must be that row's own, not the batch's", hint=2)
