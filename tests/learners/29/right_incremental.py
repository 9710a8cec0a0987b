"""Lesson 29: byte-level BPE: train merges on a text, encode with them, decode ids back to text."""
import re

SPECIAL = "<|endoftext|>"
PRETOKEN = re.compile(r" ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+")


def pretokenize(text):
    return PRETOKEN.findall(text)


from collections import Counter, defaultdict


def merge(ids, pair, new_id):
    a, b = pair
    out = []
    skip = False
    for i, x in enumerate(ids):
        if skip:
            skip = False
            continue
        if x == a and i + 1 < len(ids) and ids[i + 1] == b:
            out.append(new_id)
            skip = True
        else:
            out.append(x)
    return out


def train_bpe(text, vocab_size):
    if vocab_size < 257:
        raise ValueError(vocab_size)
    words = Counter(tuple(p.encode()) for doc in text.split(SPECIAL) for p in pretokenize(doc))
    seqs = {w: list(w) for w in words}
    stats, holders = Counter(), defaultdict(set)
    for w, seq in seqs.items():
        for p in zip(seq, seq[1:]):
            stats[p] += words[w]
            holders[p].add(w)
    tok = [bytes([i]) for i in range(256)]
    merges = []
    while len(merges) < vocab_size - 257:
        stats = +stats
        if not stats:
            break
        best = max(stats, key=lambda p: (stats[p], tok[p[0]], tok[p[1]]))
        new_id = len(tok)
        merges.append(best)
        tok.append(tok[best[0]] + tok[best[1]])
        for w in list(holders[best]):
            seq = seqs[w]
            for p in zip(seq, seq[1:]):
                stats[p] -= words[w]
            seq = seqs[w] = merge(seq, best, new_id)
            for p in zip(seq, seq[1:]):
                stats[p] += words[w]
                holders[p].add(w)
    return merges


def encode(text, merges):
    rank = {tuple(p): i for i, p in enumerate(merges)}
    out = []
    for k, part in enumerate(text.split(SPECIAL)):
        if k:
            out.append(256 + len(merges))
        for piece in pretokenize(part):
            seq = list(piece.encode())
            while True:
                cands = [p for p in zip(seq, seq[1:]) if p in rank]
                if not cands:
                    break
                p = min(cands, key=rank.__getitem__)
                seq = merge(seq, p, 256 + rank[p])
            out.extend(seq)
    return out


def decode(ids, merges):
    tok = [bytes([i]) for i in range(256)]
    for a, b in merges:
        tok.append(tok[a] + tok[b])
    tok.append(SPECIAL.encode())
    return bytes(b for i in ids for b in tok[i]).decode("utf-8", "replace")
