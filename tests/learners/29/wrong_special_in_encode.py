# mistake: encode treats <|endoftext|> as ordinary text
# varies: right_recount.py

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
