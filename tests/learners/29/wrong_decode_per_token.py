# mistake: each token is decoded to text on its own, breaking characters split between tokens
# varies: right_recount.py

def decode(ids, merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for i, (a, b) in enumerate(merges):
        vocab[256 + i] = vocab[a] + vocab[b]
    vocab[256 + len(merges)] = SPECIAL.encode("utf-8")
    return "".join(vocab[i].decode("utf-8", errors="replace") for i in ids)
