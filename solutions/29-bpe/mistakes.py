"""Known mistakes for lesson 29 (byte-level BPE). The training mistakes share one plain trainer
that recounts every pair before each merge, with the one step its learner got wrong."""
import re

from grader.lessons.authoring import mistake

SPECIAL = "<|endoftext|>"
PRETOKEN = re.compile(r" ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+")


def right_merge(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def words_of(pieces):
    freq = {}
    for piece in pieces:
        word = tuple(piece.encode("utf-8"))
        freq[word] = freq.get(word, 0) + 1
    return freq


def pretokens(text):
    return [p for part in text.split(SPECIAL) for p in PRETOKEN.findall(part)]


def overlapping(word):
    return list(zip(word, word[1:]))


def by_bytes(pairs, vocab):
    return max(pairs, key=lambda p: (pairs[p], vocab[p[0]], vocab[p[1]]))


def plain_train(text, vocab_size, pieces=None, pairs_in=None, pick=None, weighted=True,
                n_merges=None, recount=True):
    """The lesson's training, recounting before each merge, with one step swapped for another."""
    pieces, pairs_in, pick = pieces or pretokens, pairs_in or overlapping, pick or by_bytes
    n_merges = n_merges or (lambda v: v - 257)
    if vocab_size < 257:
        raise ValueError("vocab_size below 257")
    freq = words_of(pieces(text))
    words, counts = [list(w) for w in freq], list(freq.values())
    vocab = {i: bytes([i]) for i in range(256)}
    merges, pairs = [], None
    while len(merges) < n_merges(vocab_size):
        if recount or pairs is None:
            pairs = {}
            for word, n in zip(words, counts):
                for pair in pairs_in(word):
                    pairs[pair] = pairs.get(pair, 0) + (n if weighted else 1)
        if not pairs:
            break
        best = pick(pairs, vocab)
        del pairs[best]
        new_id = 256 + len(merges)
        merges.append(best)
        vocab[new_id] = vocab[best[0]] + vocab[best[1]]
        words = [right_merge(w, best, new_id) for w in words]
    return merges


@mistake("merges-across-pre-tokens", hint=1, message="""\
Your merges cross pre-token boundaries: you counted pairs over each whole text (or document),
so a pair such as (b"e", b" ") from "the cat" can become a token. The lesson pre-tokenizes
first: pairs are counted inside each pre-token only, with pretokenize(part) for every part, and
no token ever holds the end of one word and the start of the next.""")
def train_bpe(text, vocab_size):
    return plain_train(text, vocab_size, pieces=lambda t: t.split(SPECIAL))


@mistake("special-token-merged", hint=1, message="""\
Your training reads the special token <|endoftext|> as ordinary text, so its bytes are counted
and merged (tokens such as "<|" or "endoftext" appear), and pairs are counted across the border of
two documents. Cut the text at every SPECIAL first, text.split(SPECIAL), and pre-tokenize each
part alone: the special token is never merged.""")
def train_bpe(text, vocab_size):
    return plain_train(text, vocab_size, pieces=PRETOKEN.findall)


@mistake("overlaps-counted-once", hint=2, message="""\
You count a pair once per run of repeats (as bytes.count or str.count do: non-overlapping), so
[a, a, a] holds (a, a) once in your counts where the lesson counts it twice. The lesson counts
every adjacent position, zip(word, word[1:]), overlaps included, even though only one of the two
can then be merged.""")
def train_bpe(text, vocab_size):
    def non_overlapping(word):
        found, i = [], 0
        while i + 1 < len(word):
            found.append((word[i], word[i + 1]))
            i += 2 if i + 2 < len(word) and word[i] == word[i + 1] == word[i + 2] else 1
        return found
    return plain_train(text, vocab_size, pairs_in=non_overlapping)


@mistake("counts-never-updated", hint=2, message="""\
Your pair counts are made once, before the first merge, and never updated: each merge takes the
next pair from that first table. So no merge ever joins a token made by an earlier merge (no id
above 255 appears in your merges), and counts of pairs that a merge broke up stay as they were.
After each merge, take the old pairs of every word that changed out of the counts and put its new
pairs in.""")
def train_bpe(text, vocab_size):
    return plain_train(text, vocab_size, recount=False)


@mistake("old-pairs-kept-in-the-counts", hint=2, message="""\
After a merge you add the pairs of the merged words but never take their old pairs out, so a pair
that a merge broke up keeps counting: in "the cat" after merging (a, t), the pair (c, a) is gone
from the word but still in your counts. For each word that holds the merged pair, subtract all its
old pairs (times its count) before adding its new ones.""")
def train_bpe(text, vocab_size):
    freq = words_of(pretokens(text))
    words, counts = [list(w) for w in freq], list(freq.values())
    vocab = {i: bytes([i]) for i in range(256)}
    pairs = {}
    for word, n in zip(words, counts):
        for pair in overlapping(word):
            pairs[pair] = pairs.get(pair, 0) + n
    merges = []
    if vocab_size < 257:
        raise ValueError("vocab_size below 257")
    while len(merges) < vocab_size - 257 and pairs:
        best = by_bytes(pairs, vocab)
        del pairs[best]
        new_id = 256 + len(merges)
        merges.append(best)
        vocab[new_id] = vocab[best[0]] + vocab[best[1]]
        for j, word in enumerate(words):
            if best in overlapping(word):
                words[j] = right_merge(word, best, new_id)
                for pair in overlapping(words[j]):
                    if new_id in pair:
                        pairs[pair] = pairs.get(pair, 0) + counts[j]
    return merges


@mistake("ties-to-the-smallest-bytes", hint=2, message="""\
Your ties go to the pair whose byte strings are smallest. The lesson's rule is the greatest:
among the pairs with the highest count, take the one with the greatest (bytes of the first id,
bytes of the second), max(pairs, key=lambda p: (pairs[p], vocab[p[0]], vocab[p[1]])).""")
def train_bpe(text, vocab_size):
    def smallest(pairs, vocab):
        top = max(pairs.values())
        return min((p for p in pairs if pairs[p] == top), key=lambda p: (vocab[p[0]], vocab[p[1]]))
    return plain_train(text, vocab_size, pick=smallest)


@mistake("ties-to-the-smallest-ids", hint=2, message="""\
Your ties go to the pair with the smallest ids (min over the tied pairs). The lesson's rule looks
at the tokens' bytes and takes the greatest: among the pairs with the highest count, the one with
the greatest (bytes of the first id, bytes of the second), max(pairs, key=lambda p: (pairs[p],
vocab[p[0]], vocab[p[1]])).""")
def train_bpe(text, vocab_size):
    def smallest_ids(pairs, vocab):
        top = max(pairs.values())
        return min(p for p in pairs if pairs[p] == top)
    return plain_train(text, vocab_size, pick=smallest_ids)


@mistake("ties-by-ids", hint=2, message="""\
Your ties go to the pair with the greatest ids, not the greatest byte strings. The two orders
agree for single bytes, but not once merged tokens compete: id 256 might be b"ab", which is
smaller than the byte b"z" (id 122). Compare the tokens' bytes: key=lambda p: (pairs[p],
vocab[p[0]], vocab[p[1]]).""")
def train_bpe(text, vocab_size):
    return plain_train(text, vocab_size, pick=lambda pairs, vocab: max(pairs, key=lambda p: (pairs[p], p)))


@mistake("ties-to-the-first-seen", hint=2, message="""\
Your ties go to whichever of the tied pairs your table met first (max(pairs, key=pairs.get)
keeps the first maximum it sees), so the merges depend on the order of the text. The lesson
breaks ties by the greatest byte strings: key=lambda p: (pairs[p], vocab[p[0]], vocab[p[1]]).""")
def train_bpe(text, vocab_size):
    return plain_train(text, vocab_size, pick=lambda pairs, vocab: max(pairs, key=pairs.get))


@mistake("word-counts-ignored", hint=1, message="""\
You count each distinct pre-token once, however often it occurs in the text: a word that
appears 50 times weighs as much as one that appears once. Each pair's count is the sum, over the
words holding it, of how often the word occurs: add counts[j] for word j, not 1.""")
def train_bpe(text, vocab_size):
    return plain_train(text, vocab_size, weighted=False)


@mistake("no-room-for-the-special-token", hint=1, message="""\
You make vocab_size - 256 merges, one too many: the vocabulary holds the 256 bytes, the merges
and the special token <|endoftext|>, so a vocabulary of vocab_size tokens leaves room for
vocab_size - 257 merges.""")
def train_bpe(text, vocab_size):
    return plain_train(text, vocab_size, n_merges=lambda v: v - 256)


@mistake("merge-reuses-the-second-id", hint=2, message="""\
Your merge moves on by one id after merging a pair instead of two, so the second id of a merged
pair starts another pair: [5, 5, 5] with the pair (5, 5) becomes [new, new, 5] instead of
[new, 5], and the text grows. After a merge, skip both ids: i += 2.""")
def merge(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
        else:
            out.append(ids[i])
        i += 1
    return out


@mistake("merge-from-the-right", hint=2, message="""\
Your merge scans from the right, so in a run of repeats the last two ids merge: [5, 5, 5] with
the pair (5, 5) becomes [5, new]. The lesson merges from the left, [new, 5], as training counted
and as encode must do to give the same tokens.""")
def merge(ids, pair, new_id):
    out, i = [], len(ids) - 1
    while i >= 0:
        if i > 0 and ids[i - 1] == pair[0] and ids[i] == pair[1]:
            out.append(new_id)
            i -= 2
        else:
            out.append(ids[i])
            i -= 1
    return out[::-1]


@mistake("merge-only-the-first", hint=2, message="""\
Your merge replaces only the first occurrence of the pair; the others stay as two ids. Scan the
whole list and merge every occurrence, from the left.""")
def merge(ids, pair, new_id):
    for i in range(len(ids) - 1):
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            return list(ids[:i]) + [new_id] + list(ids[i + 2:])
    return list(ids)


def plain_encode(text, merges, pieces=PRETOKEN.findall, choose="earliest", special=True):
    rank = {tuple(p): 256 + i for i, p in enumerate(merges)}
    ids = []
    for k, part in enumerate(text.split(SPECIAL) if special else [text]):
        if k > 0:
            ids.append(256 + len(merges))
        for piece in pieces(part):
            word = list(piece.encode("utf-8"))
            while True:
                found = [p for p in zip(word, word[1:]) if p in rank]
                if not found:
                    break
                pair = {"earliest": lambda: min(found, key=rank.get),
                        "latest": lambda: max(found, key=rank.get),
                        "leftmost": lambda: found[0]}[choose]()
                word = right_merge(word, pair, rank[pair])
            ids.extend(word)
    return ids


@mistake("encode-latest-merge-first", hint=3, message="""\
Your encode applies the latest merge it can first. Merges must be replayed in the order training
learned them: at each step, merge the pair whose merge came first in `merges` (the lowest id),
because later merges were learned on text where the earlier ones had already been made.""")
def encode(text, merges):
    return plain_encode(text, merges, choose="latest")


@mistake("encode-leftmost-pair-first", hint=3, message="""\
Your encode merges the leftmost pair that is a merge, not the one learned first. That gives other
tokens whenever two merges compete for an id: in "abc" with the merges (b, c) first and (a, b)
second, training would have made "bc", but your encode makes "ab". At each step, take the pair
with the lowest merge id, wherever it is in the pre-token.""")
def encode(text, merges):
    return plain_encode(text, merges, choose="leftmost")


@mistake("encode-special-as-text", hint=3, message="""\
Your encode reads <|endoftext|> as text and turns its bytes into ordinary tokens. The special
token has an id of its own, 256 + len(merges): cut the text at every SPECIAL first, encode each
part, and put that id between them.""")
def encode(text, merges):
    return plain_encode(text, merges, special=False)


@mistake("encode-without-pre-tokens", hint=3, message="""\
Your encode merges across pre-token boundaries: it merges each whole text (or part) at once, so a
merge can join the end of one pre-token to the start of the next, which training never did.
Pre-tokenize every part with pretokenize(part) and merge inside each pre-token only.""")
def encode(text, merges):
    return plain_encode(text, merges, pieces=lambda part: [part] if part else [])


@mistake("decode-each-token-alone", hint=3, message="""\
Your decode turns each token into text on its own and then joins the strings. A character of two
or more bytes is often split between two tokens (its first byte in one, the rest in the next), and
then each half becomes U+FFFD. Join the bytes of all the tokens first, then decode once:
b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace").""")
def decode(ids, merges):
    vocab = [bytes([i]) for i in range(256)]
    for a, b in merges:
        vocab.append(vocab[a] + vocab[b])
    vocab.append(SPECIAL.encode("utf-8"))
    return "".join(vocab[i].decode("utf-8", errors="replace") for i in ids)


@mistake("decode-drops-broken-bytes", hint=3, message="""\
Your decode drops the bytes that are not valid UTF-8 (errors="ignore"). A model can write ids
whose bytes are not a whole character, and the reader should see that: the lesson's rule is
errors="replace", which writes U+FFFD for each broken sequence.""")
def decode(ids, merges):
    vocab = [bytes([i]) for i in range(256)]
    for a, b in merges:
        vocab.append(vocab[a] + vocab[b])
    vocab.append(SPECIAL.encode("utf-8"))
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="ignore")
