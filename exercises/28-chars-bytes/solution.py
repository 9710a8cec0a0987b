"""Lesson 28: characters and UTF-8 bytes as token ids, and back."""

UNK = "<unk>"     # id 0 of every character vocabulary: the id of any character it does not hold


# ---------------------------------------------------------------------------------------------
# Your turn: a character tokenizer.
# ---------------------------------------------------------------------------------------------

def char_vocab(text):
    """The character vocabulary of `text`: a list of strings, "<unk>" first (id 0), then every
    distinct character of `text` once, sorted by code point. A character's id is its index."""
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def char_encode(text, vocab):
    """The id of each character of `text` in `vocab` (a list made by char_vocab), as a list of
    ints; a character that is not in `vocab` gets 0, the id of "<unk>"."""
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def char_decode(ids, vocab):
    """The text of `ids`: vocab[i] for each id i, joined with nothing between them (so id 0
    writes "<unk>")."""
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


# ---------------------------------------------------------------------------------------------
# Your turn: a byte tokenizer (ids 0 to 255, the same for every text).
# ---------------------------------------------------------------------------------------------

def byte_encode(text):
    """The UTF-8 bytes of `text`, as a list of ints from 0 to 255."""
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def byte_decode(ids):
    """The text whose UTF-8 bytes are `ids` (ints from 0 to 255; any other id raises ValueError).
    Bytes that are not valid UTF-8 become U+FFFD, as bytes.decode("utf-8", errors="replace")
    writes them."""
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")
