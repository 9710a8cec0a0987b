# mistake: the vocabulary keeps the order in which characters first appear
# varies: right_manual_utf8.py

def char_vocab(text):
    vocab = [UNK]
    for c in text:
        if c not in vocab:
            vocab.append(c)
    return vocab


def byte_encode(text):
    return list(text.encode("utf-8"))
