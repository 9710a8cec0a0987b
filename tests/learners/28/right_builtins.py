"""Lesson 28: characters and UTF-8 bytes as token ids, and back."""

UNK = "<unk>"

import codecs


def char_vocab(text):
    return [UNK, *sorted(dict.fromkeys(text), key=ord)]


def char_encode(text, vocab):
    lookup = dict(zip(vocab, range(len(vocab))))
    return list(map(lambda c: lookup.get(c, 0), text))


def char_decode(ids, vocab):
    return "".join(map(vocab.__getitem__, ids))


def byte_encode(text):
    return [*codecs.encode(text, "utf-8")]


def byte_decode(ids):
    return codecs.decode(bytes(ids), "utf-8", errors="replace")
