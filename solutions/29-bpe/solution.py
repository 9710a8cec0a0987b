"""Lesson 29: byte-level BPE: train merges on a text, encode with them, decode ids back to text."""
import re

SPECIAL = "<|endoftext|>"    # the one special token: it separates documents, and is never merged

# Pre-tokens: a run of letters, of digits or of other symbols, each with at most one space in front
# (" the", " 2026", " ..."), or a run of whitespace (kept apart from a word that follows it, but for
# the one space that word takes). \w, \d and \s follow Unicode, so every character is in exactly one
# class and the pre-tokens, put together, give the text back.
PRETOKEN = re.compile(r" ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+")


# ---------------------------------------------------------------------------------------------
# Given: the pre-tokenisation. No merge ever crosses from one pre-token into the next.
# ---------------------------------------------------------------------------------------------

def pretokenize(text):
    """The pre-tokens of `text` (a text without the special token), in order."""
    return PRETOKEN.findall(text)


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

def merge(ids, pair, new_id):
    """`ids` with every occurrence of `pair` (two adjacent ids) replaced by `new_id`, scanning from
    the left: once a pair is merged, its second id cannot start another one ([5, 5, 5] with
    pair (5, 5) becomes [new_id, 5])."""
    ### BEGIN SOLUTION
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
    ### END SOLUTION


def train_bpe(text, vocab_size):
    """The merges learned from `text`, as a list of pairs of ids: merge i makes id 256 + i.

    The vocabulary holds the 256 bytes, the merges and SPECIAL (last), so at most
    vocab_size - 257 merges; a vocab_size below 257 raises ValueError. The text is cut at every
    SPECIAL, each part pre-tokenized, each pre-token turned into its UTF-8 bytes. Each merge takes
    the pair of adjacent ids that occurs most often (overlapping occurrences counted: [5, 5, 5]
    holds (5, 5) twice), a tie going to the pair whose byte strings are greatest, compared as
    (bytes of the first, bytes of the second). Training stops early when no pair is left.
    """
    ### BEGIN SOLUTION
    if vocab_size < 257:
        raise ValueError(f"vocab_size {vocab_size}: the 256 bytes and {SPECIAL} need 257")
    # 1. Each distinct pre-token once, with how often it occurs
    freq = {}
    for part in text.split(SPECIAL):
        for piece in pretokenize(part):
            word = tuple(piece.encode("utf-8"))
            freq[word] = freq.get(word, 0) + 1
    words = [list(w) for w in freq]
    counts = list(freq.values())
    vocab = {i: bytes([i]) for i in range(256)}
    # 2. Every adjacent pair counted once, weighted by its word's count; and which words hold it
    pairs, where = {}, {}
    for j, word in enumerate(words):
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + counts[j]
            where.setdefault(pair, set()).add(j)
    merges = []
    while len(merges) < vocab_size - 257 and pairs:
        best = max(pairs, key=lambda p: (pairs[p], vocab[p[0]], vocab[p[1]]))
        new_id = 256 + len(merges)
        merges.append(best)
        vocab[new_id] = vocab[best[0]] + vocab[best[1]]
        # 3. Only the words holding `best` change: take their old pairs out, put their new ones in
        for j in where.pop(best):
            for pair in zip(words[j], words[j][1:]):
                pairs[pair] -= counts[j]
                if pairs[pair] == 0:
                    del pairs[pair]
            words[j] = merge(words[j], best, new_id)
            for pair in zip(words[j], words[j][1:]):
                pairs[pair] = pairs.get(pair, 0) + counts[j]
                where.setdefault(pair, set()).add(j)
    return merges
    ### END SOLUTION


def encode(text, merges):
    """The ids of `text`: SPECIAL becomes id 256 + len(merges); the rest is cut at every SPECIAL,
    pre-tokenized, and each pre-token's bytes merged, again and again, at the pair of adjacent ids
    whose merge came first in `merges`, until no pair of it is a merge."""
    ### BEGIN SOLUTION
    rank = {pair: 256 + i for i, pair in enumerate(merges)}
    ids = []
    for k, part in enumerate(text.split(SPECIAL)):
        if k > 0:
            ids.append(256 + len(merges))
        for piece in pretokenize(part):
            word = list(piece.encode("utf-8"))
            while len(word) > 1:
                pair = min(zip(word, word[1:]), key=lambda p: rank.get(p, float("inf")))
                if pair not in rank:
                    break
                word = merge(word, pair, rank[pair])
            ids.extend(word)
    return ids
    ### END SOLUTION


def decode(ids, merges):
    """The text of `ids`: the bytes of every id put together (id 256 + i is the bytes of merge i's
    two ids, id 256 + len(merges) is SPECIAL), then read as UTF-8 once, with errors="replace"."""
    ### BEGIN SOLUTION
    vocab = [bytes([i]) for i in range(256)]
    for a, b in merges:
        vocab.append(vocab[a] + vocab[b])
    vocab.append(SPECIAL.encode("utf-8"))
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
    ### END SOLUTION
