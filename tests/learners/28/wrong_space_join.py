# mistake: char_decode joins the characters with spaces
"""Lesson 28: characters and UTF-8 bytes as token ids, and back."""

UNK = "<unk>"


def char_vocab(text):
    return [UNK] + sorted(set(text))


def char_encode(text, vocab):
    return [vocab.index(c) if c in vocab else 0 for c in text]


def char_decode(ids, vocab):
    return " ".join(vocab[i] for i in ids)


def byte_encode(text):
    return list(text.encode("utf-8"))


def byte_decode(ids):
    return bytes(ids).decode("utf-8", errors="replace")

