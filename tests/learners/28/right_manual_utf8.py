"""Lesson 28: characters and UTF-8 bytes as token ids, and back."""

UNK = "<unk>"


def char_vocab(text):
    return [UNK] + sorted(set(text))


def char_encode(text, vocab):
    index = {c: i for i, c in enumerate(vocab)}
    return [index.get(c, 0) for c in text]


def char_decode(ids, vocab):
    return "".join(vocab[i] for i in ids)


def byte_encode(text):
    out = []
    for c in text:
        n = ord(c)
        if n < 0x80:
            out.append(n)
        elif n < 0x800:
            out += [0xC0 | n >> 6, 0x80 | n & 0x3F]
        elif n < 0x10000:
            out += [0xE0 | n >> 12, 0x80 | n >> 6 & 0x3F, 0x80 | n & 0x3F]
        else:
            out += [0xF0 | n >> 18, 0x80 | n >> 12 & 0x3F, 0x80 | n >> 6 & 0x3F, 0x80 | n & 0x3F]
    return out


def byte_decode(ids):
    return bytes(ids).decode("utf-8", errors="replace")
