# mistake: characters not in the vocabulary are left out of the ids
# varies: right_manual_utf8.py

def char_encode(text, vocab):
    return [vocab.index(c) for c in text if c in vocab]


def byte_encode(text):
    return list(text.encode("utf-8"))
