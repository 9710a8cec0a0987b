# mistake: the vocabulary is built from text.split(), losing the whitespace
# varies: right_manual_utf8.py

def char_vocab(text):
    chars = set()
    for word in text.split():
        chars.update(word)
    return [UNK] + sorted(chars)


def byte_encode(text):
    return list(text.encode("utf-8"))
