# mistake: training does not cut the text at <|endoftext|>, so its bytes are merged
# varies: right_recount.py

def train_bpe(text, vocab_size):
    if vocab_size < 257:
        raise ValueError("vocab_size must be at least 257")
    counts = {}
    for doc in [text]:
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
