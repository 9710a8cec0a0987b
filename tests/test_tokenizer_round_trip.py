"""The references of lessons 28 and 29 keep the round trip: decode(encode(s)) == s.

Strings are drawn by hypothesis from all of Unicode but the surrogates (U+D800 to U+DFFF, which
UTF-8 cannot write, so `str.encode("utf-8")` refuses them): emoji, combining marks, control
characters and every script included. The character tokenizer keeps the round trip for strings
made of its vocabulary's characters; the byte tokenizer and BPE keep it for every string.
"""
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
ROAD = roadmap.load(ROOT)
CHARS = lesson.load(ROAD, "28").namespace()
BPE = lesson.load(ROAD, "29").namespace()
SPECIAL = BPE["SPECIAL"]

ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=60)
# combining marks, emoji with modifiers and joiners, and text of several scripts, drawn often
TRICKY = st.text(alphabet=st.sampled_from(list("e\u0301a\u0308 \n\t😀👍🏽\u200d👩中文жωé€_.,!?1")),
                 max_size=40)
TEXTS = st.one_of(ANY_TEXT, TRICKY)


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_bytes_round_trip_any_string(s):
    ids = CHARS["byte_encode"](s)
    assert all(type(i) is int and 0 <= i <= 255 for i in ids)
    assert CHARS["byte_decode"](ids) == s


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_characters_round_trip_over_the_vocabulary(data):
    train = data.draw(TEXTS.filter(bool), label="training text")
    vocab = CHARS["char_vocab"](train)
    s = data.draw(st.text(alphabet=st.sampled_from(sorted(set(train))), max_size=50), label="text")
    ids = CHARS["char_encode"](s, vocab)
    assert len(ids) == len(s) and 0 not in ids
    assert CHARS["char_decode"](ids, vocab) == s


@settings(max_examples=60, deadline=None)
@given(TEXTS, TEXTS, st.integers(257, 300))
def test_bpe_round_trip_any_string(train, s, vocab_size):
    merges = BPE["train_bpe"](train, vocab_size)
    ids = BPE["encode"](s, merges)
    assert all(0 <= i <= 256 + len(merges) for i in ids)
    assert BPE["decode"](ids, merges) == s


@settings(max_examples=40, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=4), st.integers(257, 320))
def test_bpe_round_trip_across_special_tokens(docs, vocab_size):
    text = SPECIAL.join(docs)
    merges = BPE["train_bpe"](text, vocab_size)
    ids = BPE["encode"](text, merges)
    assert ids.count(256 + len(merges)) == len(docs) - 1
    assert BPE["decode"](ids, merges) == text


@settings(max_examples=100, deadline=None)
@given(TEXTS)
def test_pretokens_put_together_are_the_text(s):
    assert "".join(BPE["pretokenize"](s)) == s
