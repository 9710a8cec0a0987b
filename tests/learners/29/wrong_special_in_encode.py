# mistake: encode treats <|endoftext|> as ordinary text
"""Lesson 29: byte-level BPE: train merges on a text, encode with them, decode ids back to text."""
import re

SPECIAL = "<|endoftext|>"
PRETOKEN = re.compile(r" ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+")


def pretokenize(text):
    return PRETOKEN.findall(text)


def merge(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out

def train_bpe(text, vocab_size):
    if vocab_size < 257:
        raise ValueError("vocab_size must be at least 257")
    counts = {}
    for doc in text.split(SPECIAL):
        for piece in pretokenize(doc):
            key = tuple(piece.encode("utf-8"))
            counts[key] = counts.get(key, 0) + 1
    words = [list(k) for k in counts]
    freqs = list(counts.values())
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    while len(merges) < vocab_size - 257:
        stats = {}
        for word, f in zip(words, freqs):
            for i in range(len(word) - 1):
                p = (word[i], word[i + 1])
                stats[p] = stats.get(p, 0) + f
        if not stats:
            break
        best = max(stats, key=lambda p: (stats[p], vocab[p[0]], vocab[p[1]]))
        new_id = 256 + len(merges)
        merges.append(best)
        vocab[new_id] = vocab[best[0]] + vocab[best[1]]
        words = [merge(w, best, new_id) for w in words]
    return merges

def encode(text, merges):
    ids = []
    parts = [text]
    for k, part in enumerate(parts):
        for piece in pretokenize(part):
            word = list(piece.encode("utf-8"))
            for i, pair in enumerate(merges):
                word = merge(word, tuple(pair), 256 + i)
            ids += word
        if k < len(parts) - 1:
            ids.append(256 + len(merges))
    return ids

def decode(ids, merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for i, (a, b) in enumerate(merges):
        vocab[256 + i] = vocab[a] + vocab[b]
    vocab[256 + len(merges)] = SPECIAL.encode("utf-8")
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
