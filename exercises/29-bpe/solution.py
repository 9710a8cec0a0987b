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
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def train_bpe(text, vocab_size):
    """The merges learned from `text`, as a list of pairs of ids: merge i makes id 256 + i.

    The vocabulary holds the 256 bytes, the merges and SPECIAL (last), so at most
    vocab_size - 257 merges; a vocab_size below 257 raises ValueError. The text is cut at every
    SPECIAL, each part pre-tokenized, each pre-token turned into its UTF-8 bytes. Each merge takes
    the pair of adjacent ids that occurs most often (overlapping occurrences counted: [5, 5, 5]
    holds (5, 5) twice), a tie going to the pair whose byte strings are greatest, compared as
    (bytes of the first, bytes of the second). Training stops early when no pair is left.
    """
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def encode(text, merges):
    """The ids of `text`: SPECIAL becomes id 256 + len(merges); the rest is cut at every SPECIAL,
    pre-tokenized, and each pre-token's bytes merged, again and again, at the pair of adjacent ids
    whose merge came first in `merges`, until no pair of it is a merge."""
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")


def decode(ids, merges):
    """The text of `ids`: the bytes of every id put together (id 256 + i is the bytes of merge i's
    two ids, id 256 + len(merges) is SPECIAL), then read as UTF-8 once, with errors="replace"."""
    # YOUR CODE HERE
    raise NotImplementedError("not implemented yet")
