# mistake: encode merges the leftmost mergeable pair instead of the one learned first
# varies: right_recount.py

def encode(text, merges):
    ids = []
    parts = text.split(SPECIAL)
    for k, part in enumerate(parts):
        for piece in pretokenize(part):
            word = list(piece.encode("utf-8"))
            rank = {tuple(p): 256 + i for i, p in enumerate(merges)}
            changed = True
            while changed:
                changed = False
                for j in range(len(word) - 1):
                    if (word[j], word[j + 1]) in rank:
                        word = merge(word, (word[j], word[j + 1]), rank[(word[j], word[j + 1])])
                        changed = True
                        break
            ids += word
        if k < len(parts) - 1:
            ids.append(256 + len(merges))
    return ids
