# mistake: no <unk> token: the first character gets id 0
# varies: right_manual_utf8.py

def char_vocab(text):
    return sorted(set(text))


def byte_encode(text):
    return list(text.encode("utf-8"))
