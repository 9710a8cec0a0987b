"""Lesson 29's reference agrees with Hugging Face `tokenizers` and with a plain BPE written here.

The plain trainer below recounts every pair before every merge (slow, but with nothing to get
wrong in an update); the reference's incremental counts must give exactly its merges, ties
included.

Hugging Face's byte-level BPE (a `BPE` model, the `ByteLevel` pre-tokenizer without a prefix
space, `BpeTrainer` with all 256 bytes as its alphabet) agrees where the conventions can be matched:
* pre-tokenisation: its pattern is GPT-2's, which also splits off `'s`, `'t`, `'re`, `'ve`, `'m`,
  `'ll` and `'d`, and uses Unicode's letter and number classes. The lesson's pattern has no
  contractions and takes Python's `\\w` and `\\d`; the two cut alike on text without apostrophes
  made of letters, decimal digits, punctuation, spaces, newlines and tabs, which is what the texts
  here hold;
* ties: its trainer breaks them by its own token ids (in the order its alphabet and merges were
  made), the lesson by the greatest byte strings. So the training test replays Hugging Face's
  merges one by one and checks that each is a pair of the highest count at that point: the counts,
  overlaps, pre-token boundaries and merges agree, and the choice among tied pairs is left free;
* the special token: Hugging Face's trainer is given the documents one by one, as the lesson's
  cut at `<|endoftext|>` does; encode and decode are compared on text without it;
* ids: Hugging Face numbers its tokens its own way, so its encoder is built here from the
  reference's merges, with the reference's ids.
"""
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
REF = lesson.load(roadmap.load(ROOT), "29").namespace()
train_bpe, encode, decode, pretokenize = (REF[n] for n in ("train_bpe", "encode", "decode", "pretokenize"))
SPECIAL = REF["SPECIAL"]


def byte_level_alphabet():
    """GPT-2's printable stand-ins for the 256 bytes, as Hugging Face's ByteLevel writes them:
    the printable Latin-1 bytes stand for themselves, every other byte for a character from U+0100
    on, in byte order."""
    printable = {*range(33, 127), *range(161, 173), *range(174, 256)}
    table, extra = {}, 0
    for b in range(256):
        table[b] = chr(b) if b in printable else chr(256 + extra)
        extra += b not in printable
    return table


TO_CHAR = byte_level_alphabet()
TO_BYTE = {c: b for b, c in TO_CHAR.items()}


def token_bytes(merges):
    vocab = [bytes([i]) for i in range(256)]
    for a, b in merges:
        vocab.append(vocab[a] + vocab[b])
    return vocab


def plain_counts(words):
    counts = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + n
    return counts


def plain_merge(word, pair):
    out, i = [], 0
    while i < len(word):
        if tuple(word[i:i + 2]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def plain_words(docs):
    """Each pre-token as a tuple of one-byte strings, with how often it occurs."""
    words = {}
    for doc in docs:
        for piece in pretokenize(doc):
            word = tuple(bytes([b]) for b in piece.encode("utf-8"))
            words[word] = words.get(word, 0) + 1
    return words


def plain_train(text, n_merges):
    """The merges as pairs of byte strings, recounting everything before each merge."""
    words, merges = plain_words(text.split(SPECIAL)), []
    while len(merges) < n_merges:
        counts = plain_counts(words)
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))     # greatest byte strings win a tie
        merges.append(best)
        words = {plain_merge(w, best): n for w, n in words.items()}
    return merges


def hf_train(docs, n_merges):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(vocab_size=256 + n_merges, min_frequency=0, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(docs, trainer)
    merges = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(bytes(TO_BYTE[c] for c in side) for side in m) for m in merges]


def hf_encoder(merges):
    """A Hugging Face byte-level BPE tokenizer holding the reference's merges and ids."""
    vocab = token_bytes(merges)
    chars = ["".join(TO_CHAR[b] for b in v) for v in vocab]
    tok = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(chars)},
                               merges=[(chars[a], chars[b]) for a, b in merges]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    return tok


WORDS = "tokens merge pairs bytes text count words model training the of and a to in is for on".split()
# a made-up text in the convention both sides share: no apostrophes, letters of several scripts
ALPHABET = "abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789 .,;:!?-()\n\t éüßжшωλ中文😀"


def zipf_text(seed, n_words=3000):
    rng = random.Random(seed)
    vocab = WORDS + ["".join(rng.choice("abcdefghijklmnopéü") for _ in range(rng.randint(2, 8)))
                     for _ in range(200)]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    words = rng.choices(vocab, weights=weights, k=n_words)
    seps = rng.choices([" ", " ", " ", ", ", ". ", "\n", "  ", " 42 "], k=n_words)
    return "".join(w + s for w, s in zip(words, seps))


@pytest.mark.parametrize("seed", [0, 1])
def test_incremental_counts_give_the_plain_merges(seed):
    text = zipf_text(seed, 1500) + SPECIAL + zipf_text(seed + 10, 500)
    vocab = token_bytes(merges := train_bpe(text, 257 + 150))
    assert [(vocab[a], vocab[b]) for a, b in merges] == plain_train(text, 150)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aab b\n" + SPECIAL[:3] + "é😀")), max_size=80),
       st.integers(257, 290))
def test_incremental_counts_on_generated_text(text, vocab_size):
    vocab = token_bytes(merges := train_bpe(text, vocab_size))
    assert [(vocab[a], vocab[b]) for a, b in merges] == plain_train(text, vocab_size - 257)


@pytest.mark.parametrize("seed", [0, 3])
def test_hugging_face_merges_are_pairs_of_the_highest_count(seed):
    docs = [zipf_text(seed), zipf_text(seed + 100, 800)]
    theirs = hf_train(docs, 200)
    assert len(theirs) == 200
    words, tied = plain_words(docs), []
    for i, pair in enumerate(theirs):
        counts = plain_counts(words)
        top = max(counts.values())
        assert counts.get(pair) == top, f"merge {i}: {pair} occurs {counts.get(pair)} times, the most is {top}"
        tied.append(sum(c == top for c in counts.values()) > 1)
        words = {plain_merge(w, pair): n for w, n in words.items()}
    assert not all(tied)       # a tie still leaves Hugging Face only the pairs of the highest count
    before_a_tie = tied.index(True) if any(tied) else len(tied)
    vocab = token_bytes(ours := train_bpe(SPECIAL.join(docs), 257 + 200))
    assert [(vocab[a], vocab[b]) for a, b in ours][:before_a_tie] == theirs[:before_a_tie]


TEXTS = st.text(alphabet=st.sampled_from(list(ALPHABET)), max_size=120)


@pytest.fixture(scope="module")
def trained():
    text = zipf_text(7)
    merges = train_bpe(text, 257 + 300)
    return tuple(merges), hf_encoder(merges)


@settings(max_examples=150, deadline=None)
@given(TEXTS)
def test_encode_equals_hugging_face_with_the_same_merges(trained, s):
    merges, tok = trained
    assert encode(s, list(merges)) == tok.encode(s).ids


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 255 + 300), max_size=40))
def test_decode_equals_hugging_face_for_any_ids(trained, ids):
    merges, tok = trained
    assert decode(ids, list(merges)) == tok.decode(ids)


def test_encode_of_a_long_text_equals_hugging_face(trained):
    merges, tok = trained
    s = zipf_text(8, 2000)
    assert encode(s, list(merges)) == tok.encode(s).ids
