"""Hidden cases for lesson 28 (characters and UTF-8 bytes as token ids)."""
from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("return a list of strings: \"<unk>\" first (id 0), then every distinct character of "
            "text once, sorted by code point.",
            cases=("a vocabulary with capitals, digits and punctuation", "a vocabulary of other scripts",
                   "a vocabulary of whitespace", "the vocabulary of an empty text", "example 1"),
            broken_by=("vocab-in-order-of-appearance", "no-unk", "unk-last", "vocab-keeps-repeats",
                       "vocab-without-whitespace")),
    promise("a character that is not in vocab gets 0, the id of \"<unk>\".",
            cases=("unknown characters at both ends", "unknown characters in a row", "example 3"),
            broken_by=("unknown-dropped", "unknown-minus-one")),
    promise("return the id of each character of text in vocab (a list made by char_vocab), as a "
            "list of ints",
            cases=("encode over a vocabulary of other scripts", "encode the empty text", "example 2"),
            broken_by=(edit("index.get(c, 0)", "index.get(c, 0) - 1"),)),
    promise("return vocab[i] for each id i, joined with nothing between them (so id 0 writes "
            "\"<unk>\").",
            cases=("decode with unknown ids", "decode nothing", "example 4"),
            broken_by=("decode-with-spaces", "decode-skips-unk")),
    promise("return the UTF-8 bytes of text, as a list of ints from 0 to 255.",
            cases=("bytes of every width", "bytes of a combining accent", "bytes of control characters",
                   "example 5"),
            broken_by=("code-points-not-bytes",)),
    promise("return the text whose UTF-8 bytes are ids",
            cases=("decode characters of every width", "example 6"),
            broken_by=("bytes-read-as-latin-1", "decode-byte-by-byte")),
    promise("bytes that are not valid UTF-8 become U+FFFD, as bytes.decode(\"utf-8\", "
            "errors=\"replace\") writes them.",
            cases=("broken UTF-8 sequences", "a character cut short", "example 7"),
            broken_by=("invalid-bytes-ignored", "decode-byte-by-byte")),
    promise("An id outside 0 to 255 raises ValueError.",
            cases=("an id above 255",), broken_by=("bytes-read-as-latin-1",)),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("<unk>", "sorted", "set", "vocabulary", "whitespace", "text.encode", "code-point"),
                 ("get(c, 0)", "unknown", "dict", "ids", "decode", "bytes(ids)"),
                 ("byte_encode", "byte_decode", "utf-8", "errors=\"replace\"", "bytes")),
    functions=("char_vocab", "char_encode", "char_decode", "byte_encode", "byte_decode"),
)

LATIN = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;:!?'\"-()\n"
WORLD = "éüßçñøæ€£¥ЖжΩωאבمرحبا你好世界こんにちは😀🎉👍🏽"


def text(rng, alphabet, n):
    """n characters drawn from `alphabet`."""
    return "".join(alphabet[i] for i in rng.integers(0, len(alphabet), size=n))


def vocab_of(s):
    return ["<unk>"] + sorted(set(s))


def cases(rng):
    # --- char_vocab ---
    yield case("a vocabulary with capitals, digits and punctuation", call("char_vocab", text(rng, LATIN, 120)),
               probe="120 characters of letters in both cases, digits, punctuation, spaces and "
                     "newlines: capitals sort before small letters", hint=1)
    yield case("a vocabulary of other scripts", call("char_vocab", text(rng, LATIN[:30] + WORLD, 80)),
               probe="letters with accents, Cyrillic, Greek, Hebrew, Arabic, Chinese, Japanese and "
                     "emoji, each one character", hint=1)
    yield case("a vocabulary of whitespace", call("char_vocab", "a b\tc\nd  e\r\n"),
               probe="spaces, a tab, newlines and a carriage return are characters too", hint=1)
    yield case("the vocabulary of an empty text", call("char_vocab", ""),
               probe="an empty text: only \"<unk>\"", hint=1)

    # --- char_encode ---
    train = text(rng, LATIN[:27], 60)
    known = sorted(set(train))
    yield case("unknown characters at both ends",
               call("char_encode", "Q" + text(rng, "".join(known), 20) + "9!", vocab_of(train)),
               probe="a capital first and a digit and '!' last, none of them in the vocabulary", hint=2)
    yield case("unknown characters in a row",
               call("char_encode", text(rng, "".join(known), 8) + "ÉÈÊ" + text(rng, "".join(known), 8),
                    vocab_of(train)),
               probe="three accented capitals in a row that the vocabulary lacks", hint=2)
    world = text(rng, WORLD, 40)
    yield case("encode over a vocabulary of other scripts",
               call("char_encode", text(rng, "".join(sorted(set(world))), 30), vocab_of(world)),
               probe="30 characters of many scripts, every one in the vocabulary", hint=1)
    yield case("encode the empty text", call("char_encode", "", vocab_of(train)),
               probe="an empty text encodes to no ids", hint=2)

    # --- char_decode ---
    vocab = vocab_of(world)
    ids = [int(i) for i in rng.integers(0, len(vocab), size=25)] + [0, 0]
    yield case("decode with unknown ids", call("char_decode", ids, vocab),
               probe="25 random ids of a vocabulary of many scripts, id 0 among them, then two more 0s",
               hint=2)
    yield case("decode nothing", call("char_decode", [], vocab), probe="no ids decode to \"\"", hint=2)

    # --- byte_encode ---
    yield case("bytes of every width", call("byte_encode", text(rng, LATIN[:30] + WORLD, 40)),
               probe="characters of 1, 2, 3 and 4 UTF-8 bytes", hint=3)
    yield case("bytes of a combining accent", call("byte_encode", "Cafe\u0301 nai\u0308ve"),
               probe="e and i followed by combining accents (U+0301, U+0308), two bytes each", hint=3)
    yield case("bytes of control characters", call("byte_encode", "\x00\x01\x7f\t\n"),
               probe="NUL, SOH, DEL, a tab and a newline: one byte each, as in ASCII", hint=3)

    # --- byte_decode ---
    chars = text(rng, WORLD, 12)
    yield case("decode characters of every width", call("byte_decode", list(chars.encode("utf-8"))),
               probe="the UTF-8 bytes of 12 characters of 2, 3 and 4 bytes", hint=3)
    yield case("broken UTF-8 sequences", call("byte_decode", [104, 128, 105, 255, 192, 33, 237, 160, 128]),
               probe="a lone continuation byte, 255, an overlong start and an encoded surrogate "
                     "between ASCII letters", hint=3)
    yield case("a character cut short", call("byte_decode", [111, 107, 32, 240, 159, 152]),
               probe="'ok ' then the first three of the four bytes of an emoji", hint=3)
    yield case("an id above 255", call("byte_decode", [72, 105, 256]), raises="ValueError",
               probe="the id 256 is not a byte: bytes(ids) raises ValueError", hint=3)
