"""The little language the capstone's model learns: its text, its characters, its rules and how
well a text keeps them, and the lowest loss any model can reach on it.

A text is one line of sentences such as `ana sees bo. bo likes cy. cy helps ana.`, where

1. form: a sentence is *name verb name* and a full stop;
2. two people: the two names of a sentence differ;
3. chain: each sentence starts with the name the sentence before it ended with.
"""
import math

import numpy as np

NAMES = ("ana", "bo", "cy", "dee", "eli", "fay")
VERBS = ("sees", "likes", "helps", "calls")
RULES = ("form", "two people", "chain")


def make_text(n_sentences, seed=0):
    """`n_sentences` sentences that keep every rule: each object is drawn uniformly from the other
    five names, each verb uniformly from the four."""
    rng = np.random.default_rng(seed)
    subject, sentences = NAMES[0], []
    for _ in range(n_sentences):
        obj = str(rng.choice([n for n in NAMES if n != subject]))
        sentences.append(f"{subject} {rng.choice(VERBS)} {obj}.")
        subject = obj
    return " ".join(sentences)


def floor_nats():
    """The entropy of the language per character, in nats: no model, however good, has a lower
    expected loss. Each sentence makes two free choices (an object from 5 names, a verb from 4),
    so it carries ln 20 nats; by symmetry every name is equally often subject and object, so a
    sentence and the space after it are 2 * mean(name length) + mean(verb length) + 4 characters
    long (two spaces inside, the full stop and the space after it)."""
    name = sum(map(len, NAMES)) / len(NAMES)
    verb = sum(map(len, VERBS)) / len(VERBS)
    return math.log((len(NAMES) - 1) * len(VERBS)) / (2 * name + verb + 4)


class Characters:
    """The vocabulary: every character of a text, in sorted order, as token ids 0..V-1."""

    def __init__(self, text):
        self.chars = sorted(set(text))
        self.ids = {c: i for i, c in enumerate(self.chars)}

    def __len__(self):
        return len(self.chars)

    def encode(self, text):
        return [self.ids[c] for c in text]

    def decode(self, ids):
        return "".join(self.chars[i] for i in ids)


def complete_sentences(text):
    """The sentences of `text` between its first full stop and its last, as lists of words: a
    generated text may begin and end in the middle of a sentence."""
    return [part.strip().split(" ") for part in text.split(".")[1:-1]]


def rules_kept(text):
    """The share of the complete sentences in `text` that keep each rule, and how many there are.

    form: the sentence is name verb name. two people: it has the form and its names differ.
    chain: it and the sentence before it have the form, and it starts with the name that one
    ended with (the first complete sentence has no sentence before it to chain to).
    """
    words = complete_sentences(text)
    form = [len(w) == 3 and w[0] in NAMES and w[1] in VERBS and w[2] in NAMES for w in words]
    two = [ok and w[0] != w[2] for ok, w in zip(form, words)]
    chain = [ok and ok_before and w[0] == before[2]
             for ok, ok_before, w, before in zip(form[1:], form, words[1:], words)]
    share = lambda kept: sum(kept) / len(kept) if kept else 0.0
    return {"form": share(form), "two people": share(two), "chain": share(chain),
            "sentences": len(words)}
