"""Known mistakes for lesson 28 (characters and UTF-8 bytes as token ids)."""
from grader.lessons.authoring import mistake

UNK = "<unk>"


@mistake("vocab-in-order-of-appearance", hint=1, message="""\
Your vocabulary lists the characters in the order they first appear in the text, not sorted by
code point. It holds the right characters, but their ids depend on how the text happens to begin:
two texts with the same characters get different vocabularies, and a model trained with one cannot
read ids made with the other. Sort them: ["<unk>"] + sorted(set(text)).""")
def char_vocab(text):
    return [UNK] + list(dict.fromkeys(text))


@mistake("no-unk", hint=1, message="""\
Your vocabulary has no "<unk>": the text's first character got id 0. The lesson keeps id 0 for
every character the vocabulary does not hold, so that any text can be encoded. Start the list
with "<unk>": ["<unk>"] + sorted(set(text)).""")
def char_vocab(text):
    return sorted(set(text))


@mistake("unk-last", hint=1, message="""\
Your "<unk>" comes last, after the characters. Its id must be 0 (the lesson's rule), so that it
stays the same whatever the text: put it first, ["<unk>"] + sorted(set(text)), and every
character's id is one more than its place among the sorted characters.""")
def char_vocab(text):
    return sorted(set(text)) + [UNK]


@mistake("vocab-keeps-repeats", hint=1, message="""\
Your vocabulary holds a character once for every time it appears (sorted(text) keeps the
repeats), so it is as long as the text and a character has several ids. Take each character
once: sorted(set(text)).""")
def char_vocab(text):
    return [UNK] + sorted(text)


@mistake("vocab-without-whitespace", hint=1, message="""\
Your vocabulary leaves out the whitespace (spaces, newlines, tabs): text.split() throws it away.
Whitespace is text like any other character, and a tokenizer without it turns every space into
"<unk>". Use every character: sorted(set(text)).""")
def char_vocab(text):
    return [UNK] + sorted(set("".join(text.split())))


@mistake("unknown-dropped", hint=2, message="""\
Your char_encode leaves out the characters the vocabulary does not hold, so the ids are shorter
than the text and decoding them loses where the unknown characters were. Give each unknown
character the id 0 ("<unk>"): one id per character, always.""")
def char_encode(text, vocab):
    index = {c: i for i, c in enumerate(vocab)}
    return [index[c] for c in text if c in index]


@mistake("unknown-minus-one", hint=2, message="""\
Your char_encode gives an unknown character the id -1. That is not an id of the vocabulary (an
embedding table would read its last row with it): the lesson's rule is id 0, "<unk>", for every
character the vocabulary does not hold.""")
def char_encode(text, vocab):
    index = {c: i for i, c in enumerate(vocab)}
    return [index.get(c, -1) for c in text]


@mistake("decode-with-spaces", hint=2, message="""\
Your char_decode puts a space between the characters (" ".join). Each id is one character of the
text, spaces included, so join them with nothing: "".join(vocab[i] for i in ids).""")
def char_decode(ids, vocab):
    return " ".join(vocab[i] for i in ids)


@mistake("decode-skips-unk", hint=2, message="""\
Your char_decode leaves out id 0. The lesson's decode writes vocab[i] for every id, so id 0 writes
"<unk>": the reader then sees where the text held a character the vocabulary did not know.""")
def char_decode(ids, vocab):
    return "".join(vocab[i] for i in ids if i != 0)


@mistake("code-points-not-bytes", hint=3, message="""\
Your byte_encode gives each character its code point (ord(c)), not its UTF-8 bytes. For ASCII the
two agree, but "é" is code point 233 and the two bytes 195, 169, and "😀" is 128512, far above
255: a byte tokenizer's ids are the bytes of text.encode("utf-8"), 1 to 4 per character.""")
def byte_encode(text):
    return [ord(c) for c in text]


@mistake("bytes-read-as-latin-1", hint=3, message="""\
Your byte_decode turns each id into a character of its own (chr(i)), as if every byte were a
character: "é", sent as the two bytes 195, 169, comes back as "Ã©". Put the bytes together first
and decode them as UTF-8 once: bytes(ids).decode("utf-8", errors="replace").""")
def byte_decode(ids):
    return "".join(chr(i) for i in ids)


@mistake("decode-byte-by-byte", hint=3, message="""\
Your byte_decode decodes each byte on its own, so every character of two or more bytes breaks
into replacement characters (U+FFFD): one byte of "é" is not valid UTF-8 by itself. Join all the
bytes first, then decode once: bytes(ids).decode("utf-8", errors="replace").""")
def byte_decode(ids):
    return "".join(bytes([i]).decode("utf-8", errors="replace") for i in ids)


@mistake("invalid-bytes-ignored", hint=3, message="""\
Your byte_decode drops the bytes that are not valid UTF-8 (errors="ignore"), so the reader never
learns that something was there. The lesson's rule is errors="replace": each invalid sequence
becomes U+FFFD, as every byte-level tokenizer's decode writes it.""")
def byte_decode(ids):
    return bytes(ids).decode("utf-8", errors="ignore")
