# %% [markdown]
# ### The worked example, step by step
#
# Training on `"the cat sat on the mat"`, with the four largest counts printed before each merge
# (this cell counts everything afresh at every step, which is fine for a sentence).

# %%
import re

PRETOKEN = re.compile(r" ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+")


def merge_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if tuple(ids[i:i + 2]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def learn(text, n_merges, show=False):
    freq = {}
    for piece in PRETOKEN.findall(text):
        freq[tuple(piece.encode("utf-8"))] = freq.get(tuple(piece.encode("utf-8")), 0) + 1
    words, counts = [list(w) for w in freq], list(freq.values())
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    for step in range(n_merges):
        pairs = {}
        for word, n in zip(words, counts):
            for pair in zip(word, word[1:]):
                pairs[pair] = pairs.get(pair, 0) + n
        if not pairs:
            break
        order = sorted(pairs, key=lambda p: (pairs[p], vocab[p[0]], vocab[p[1]]), reverse=True)
        best = order[0]
        if show:
            print(f"merge {step}:", ", ".join(f"{vocab[a]}+{vocab[b]} x{pairs[(a, b)]}" for a, b in order[:4]),
                  "->", vocab[best[0]] + vocab[best[1]], "id", 256 + step)
        vocab[256 + step] = vocab[best[0]] + vocab[best[1]]
        merges.append(best)
        words = [merge_pair(w, best, 256 + step) for w in words]
    return merges


print(PRETOKEN.findall("the cat sat on the mat"))
merges = learn("the cat sat on the mat", 4, show=True)
print(merges)

# %% [markdown]
# Encoding replays the merges in their order, inside each pre-token: at each step the pair with the
# lowest new id goes first.

# %%
def encode_text(text, merges):
    rank = {pair: 256 + i for i, pair in enumerate(merges)}
    ids = []
    for piece in PRETOKEN.findall(text):
        word = list(piece.encode("utf-8"))
        while len(word) > 1:
            pair = min(zip(word, word[1:]), key=lambda p: rank.get(p, float("inf")))
            if pair not in rank:
                break
            word = merge_pair(word, pair, rank[pair])
        ids.extend(word)
    return ids


for piece in PRETOKEN.findall("the cat sat"):
    print(repr(piece), "->", encode_text(piece, merges))

# %% [markdown]
# ### A picture: how BPE shortens a text as it learns merges
#
# A made-up text of a few thousand characters and 150 merges: the number of ids its encoding takes,
# against the number of merges. The first merges (pairs such as `e` + `d` or ` ` + `t`) save the
# most; later ones help only rarer words.

# %%
import random
import matplotlib.pyplot as plt

random.seed(0)
stems = ["train", "token", "model", "merge", "pair", "byte", "text", "count", "word", "the", "a", "of"]
sample = " ".join(random.choice(stems) + random.choice(["", "s", "ed", "ing"]) for _ in range(500))
all_merges = learn(sample, 150)
steps = list(range(0, len(all_merges) + 1, 10))
lengths = [len(encode_text(sample, all_merges[:n])) for n in steps]
fig, ax = plt.subplots(figsize=(6, 3))
ax.plot(steps, lengths, marker="o")
ax.set_xlabel("merges")
ax.set_ylabel("ids in the encoded text")
ax.set_title(f"{len(sample.encode())} bytes of text")
plt.tight_layout()
plt.show()
