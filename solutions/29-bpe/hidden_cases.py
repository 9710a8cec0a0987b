"""Hidden cases for lesson 29 (byte-level BPE: merge, train_bpe, encode, decode)."""
from pathlib import Path

from grader.lessons.authoring import Spec, call, case, edit, promise

REFERENCE = {}        # the reference, to train the merges that encode and decode are given
exec(compile(Path(__file__).with_name("solution.py").read_text(), "solution.py", "exec"), REFERENCE)
SPECIAL = REFERENCE["SPECIAL"]

PROMISES = (
    promise("return ids with every occurrence of pair replaced by new_id, scanning from the left: "
            "once two ids are merged, the second cannot start another pair",
            cases=("a run of three", "a run of four", "several occurrences", "a pair at the end"),
            broken_by=("merge-reuses-the-second-id", "merge-from-the-right", "merge-only-the-first")),
    promise("make at most vocab_size - 257 merges; a vocab_size below 257 raises ValueError.",
            cases=("vocab_size 257 makes no merge", "a vocab_size too small", "example 1"),
            broken_by=("no-room-for-the-special-token", edit("if vocab_size < 257:", "if vocab_size < 256:"))),
    promise("Cut the text at every SPECIAL, pre-tokenize each part with pretokenize, and turn each "
            "pre-token into its UTF-8 bytes: pairs are counted inside pre-tokens only.",
            cases=("documents between special tokens", "random words", "digits and punctuation",
                   "runs of whitespace"),
            broken_by=("merges-across-pre-tokens", "special-token-merged")),
    promise("A pair's count is how many times its two ids stand side by side in a pre-token, "
            "overlaps included, times how often that pre-token occurs in the text.",
            cases=("overlapping pairs", "one letter over and over", "frequent and rare words",
                   "random words", "several scripts"),
            broken_by=("overlaps-counted-once", "word-counts-ignored", "counts-never-updated",
                       "old-pairs-kept-in-the-counts")),
    promise("a tie goes to the pair whose byte strings are greatest, compared as (bytes of the "
            "first id, bytes of the second).",
            cases=("example 1", "ties everywhere", "random words", "several scripts"),
            broken_by=("ties-to-the-smallest-bytes", "ties-to-the-smallest-ids", "ties-by-ids",
                       "ties-to-the-first-seen")),
    promise("Training stops early when no pair is left.",
            cases=("more merges asked than the text allows", "an empty text"),
            broken_by=(edit(" and pairs:", ":"),)),
    promise("Each SPECIAL becomes the id 256 + len(merges)",
            cases=("special tokens anywhere", "only the special token", "example 3"),
            broken_by=("encode-special-as-text",)),
    promise("merge, again and again, the pair of adjacent ids whose merge comes first in merges, "
            "until no adjacent pair is a merge.",
            cases=("competing merges", "encode a new text", "encode the training text",
                   "merges from one pre-token do not reach the next", "example 2"),
            broken_by=("encode-latest-merge-first", "encode-leftmost-pair-first",
                       "encode-without-pre-tokens")),
    promise("put together the bytes of every id (a byte's id is itself, id 256 + i is the bytes of "
            "merge i's two ids, id 256 + len(merges) is SPECIAL), then read them as UTF-8 once, with "
            "errors=\"replace\".",
            cases=("a character split between tokens", "bytes that are not UTF-8",
                   "decode the special token", "tokens made of tokens", "example 4"),
            broken_by=("decode-each-token-alone", "decode-drops-broken-bytes")),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("pretokenize", "SPECIAL", "count", "vocab_size - 257", "pre-token"),
                 ("overlap", "merge", "tie", "update", "zip(word, word[1:])", "pair"),
                 ("encode", "decode", "rank", "errors=\"replace\"", 'b"".join')),
    functions=("merge", "train_bpe", "encode", "decode"),
)


def token_bytes(merges):
    vocab = [bytes([i]) for i in range(256)]
    for a, b in merges:
        vocab.append(vocab[a] + vocab[b] if max(a, b) < len(vocab) else b"?")
    return vocab


def shown(pair, vocab):
    a, b = pair
    name = lambda i: repr(vocab[i]) if 0 <= i < len(vocab) else "an id no merge made yet"
    return f"({a}, {b}) = {name(a)} + {name(b)}"


def merges_check(got, expected, calls):
    """The reference's merges exactly; the first that differs shown with its bytes."""
    want, have = expected[0], got[0]
    if not all(isinstance(p, (tuple, list)) and len(p) == 2 and all(type(i) is int for i in p)
               for p in have):
        return "return a list of pairs: each merge a tuple (a, b) of two ints"
    have = [tuple(p) for p in have]
    vocab = token_bytes(want)
    for i, (w, h) in enumerate(zip(want, have)):
        if w != h:
            return (f"merge {i} (id {256 + i}) differs: expected {shown(w, vocab)}, got "
                    f"{shown(h, token_bytes(have))}; the {i} before it agree")
    if len(want) != len(have):
        return (f"expected {len(want)} merges, got {len(have)} (the first {min(len(want), len(have))} "
                "agree)")
    return None


def words(rng, n, letters="abcdefgh", vocab_words=40):
    """n words drawn (with repeats, so that pairs recur) from `vocab_words` random words."""
    pool = ["".join(rng.choice(list(letters), size=int(rng.integers(1, 7)))) for _ in range(vocab_words)]
    return " ".join(rng.choice(pool, size=n))


def train(name, text, vocab_size, probe, hint=2, **options):
    return case(name, call("train_bpe", text, vocab_size), probe=probe, check=merges_check, hint=hint,
                **options)


def cases(rng):
    # --- merge ---
    yield case("a run of three", call("merge", [5, 5, 5], (5, 5), 300),
               probe="[5, 5, 5] with the pair (5, 5): merged from the left", hint=2)
    yield case("a run of four", call("merge", [9, 5, 5, 5, 5, 9], (5, 5), 256),
               probe="four 5s in a row make two merged ids", hint=2)
    yield case("several occurrences", call("merge", [1, 2, 3, 1, 2, 1, 1, 2, 2], (1, 2), 257),
               probe="the pair (1, 2) three times, apart from each other", hint=2)
    yield case("a pair at the end", call("merge", [7, 8, 9, 8, 9], (8, 9), 400),
               probe="the pair ends the list", hint=2)
    yield case("no occurrence", call("merge", [3, 2, 1], (1, 2), 256),
               probe="the pair (1, 2) never stands in that order: nothing changes", hint=2)
    yield case("merge nothing", call("merge", [], (1, 2), 256), probe="an empty list", hint=2)

    # --- train_bpe ---
    yield train("overlapping pairs", "zzzz ab ab ab", 260,
                probe="'zzzz' holds (z, z) three times, as often as (a, b) occurs")
    yield train("one letter over and over", "aaaaaaa aaa aa", 262,
                probe="runs of a single letter: merged tokens of merged tokens, overlaps everywhere")
    yield train("random words", words(rng, 300), 257 + 60,
                probe="300 words drawn from 40 random words of the letters a to h; 60 merges")
    yield train("ties everywhere", " ".join(rng.permutation(list("abcdefghij"))) + " " +
                "".join(rng.permutation(list("klmnopqrst"))), 257 + 15,
                probe="letters that each occur once: every count ties")
    yield train("several scripts", words(rng, 200, letters="éüßжщωλ中文😀ab", vocab_words=25), 257 + 50,
                probe="words of accented letters, Cyrillic, Greek, Chinese and an emoji (2 to 4 bytes "
                      "each); 50 merges")
    yield train("frequent and rare words", " ".join(["the"] * 6 + ["quick", "quiet", "quilt", "quota"] +
                                                    ["theme"]), 257 + 8,
                probe="the pre-token 'the' six times, four words with 'qu' once each: count each pre-token with its frequency", hint=1)
    docs = [words(rng, int(rng.integers(2, 6)), letters="xyz", vocab_words=6) for _ in range(25)]
    yield train("documents between special tokens", SPECIAL.join(docs), 257 + 25,
                probe=f"25 short documents joined by {SPECIAL}: its bytes occur 24 times", hint=1)
    yield train("digits and punctuation", "In 2026, 26 tests... 26 cats; 2026 dogs!! " * 3, 257 + 20,
                probe="numbers, commas, dots and exclamation marks are pre-tokens of their own", hint=1)
    yield train("runs of whitespace", "a  b\n\n  c   d\tb  a\n\n  c", 257 + 12,
                probe="double spaces, newlines and a tab between letters, each run its own pre-token", hint=1)
    yield train("vocab_size 257 makes no merge", "the cat sat", 257,
                probe="257 is the bytes and the special token: no room for a merge", hint=1)
    yield case("a vocab_size too small", call("train_bpe", "the cat sat", 256), raises="ValueError",
               probe="vocab_size 256 leaves no room for the special token", hint=1)
    yield train("more merges asked than the text allows", "abcd", 400,
                probe="'abcd' allows three merges, whatever vocab_size says")
    yield train("an empty text", "", 300, probe="no text, no pairs, no merges")

    # --- encode ---
    corpus = words(rng, 400)
    merges = REFERENCE["train_bpe"](corpus, 257 + 60)
    yield case("encode the training text", call("encode", corpus[:400], merges),
               probe="the first 400 characters of the text the 60 merges were trained on", hint=3)
    yield case("encode a new text", call("encode", words(rng, 60, letters="abcdefghij") + " 42!", merges),
               probe="other words of a to j, which the merges only partly cover", hint=3)
    yield case("competing merges", call("encode", "abc bcab abcab", [(98, 99), (97, 98), (256, 97)]),
               probe="merges (b, c) first, then (a, b): encode must make 'abc' a + bc, by rank", hint=3)
    yield case("merges from one pre-token do not reach the next",
               call("encode", "the cat 1a", [(101, 32), (49, 97), (116, 104)]),
               probe="merges (e, ' ') and (1, a) join characters of two different pre-tokens, which encode must never do", hint=3)
    yield case("special tokens anywhere",
               call("encode", SPECIAL + corpus[:40] + SPECIAL + SPECIAL + corpus[40:80] + SPECIAL, merges),
               probe=f"encode {SPECIAL} at the start, twice in a row in the middle, and at the end", hint=3)
    yield case("only the special token", call("encode", SPECIAL, merges[:7]),
               probe="encode a text that is one special token, with 7 merges", hint=3)
    yield case("encode the empty text", call("encode", "", merges), probe="no text, no ids", hint=3)

    # --- decode ---
    yield case("a character split between tokens", call("decode", [99, 97, 102, 195, 169, 33], []),
               probe="decode 'café!' as single bytes: é's two bytes are two tokens", hint=3)
    yield case("bytes that are not UTF-8", call("decode", [104, 255, 105, 226, 130], [(104, 105)]),
               probe="decode 255 and a character cut short, which are not UTF-8", hint=3)
    world = words(rng, 80, letters="éüжω中😀a ", vocab_words=15)
    world_merges = REFERENCE["train_bpe"](world, 257 + 30)
    yield case("tokens made of tokens", call("decode", REFERENCE["encode"](world, world_merges), world_merges),
               probe="a text of several scripts encoded with 30 merges, some of merged tokens", hint=3)
    yield case("decode the special token",
               call("decode", REFERENCE["encode"]("ab" + SPECIAL + "é", world_merges), world_merges),
               probe=f"ids holding the special token's id, 256 + len(merges)", hint=3)
