# mistake: char_decode joins the characters with spaces
# varies: right_manual_utf8.py

def char_encode(text, vocab):
    return [vocab.index(c) if c in vocab else 0 for c in text]


def char_decode(ids, vocab):
    return " ".join(vocab[i] for i in ids)


def byte_encode(text):
    return list(text.encode("utf-8"))
