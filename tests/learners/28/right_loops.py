"""Lesson 28: characters and UTF-8 bytes as token ids, and back."""

UNK = "<unk>"


def char_vocab(text):
    seen = []
    for c in text:
        if c not in seen:
            seen.append(c)
    seen.sort()
    return [UNK] + seen


def char_encode(text, vocab):
    ids = []
    for c in text:
        if c in vocab[1:]:
            ids.append(vocab.index(c))
        else:
            ids.append(0)
    return ids


def char_decode(ids, vocab):
    out = ""
    for i in ids:
        out += vocab[i]
    return out


def byte_encode(text):
    ids = []
    for b in text.encode("utf-8"):
        ids.append(int(b))
    return ids


def byte_decode(ids):
    for i in ids:
        if not 0 <= i <= 255:
            raise ValueError(f"{i} is not a byte")
    return bytearray(ids).decode("utf-8", "replace")
