"""Reading learner text (error messages, traces, sources) in linear time.

A learner chooses what its exceptions say, at any length and in any shape, so a backtracking pattern
over that text can hold the parent for hours. Here a reading is a forward scan: `search` finds each
place an anchor (a literal) occurs with `str.find`, and from there a Scanner reads a bounded amount
(literals, numbers of at most MAX_DIGITS digits, shapes of at most MAX_DIMS sizes), so a message of
n characters costs O(n) whatever it holds; the wording of an error is read by two patterns that are
linear by construction (below). Numbers come back as ints small enough to be sizes: a longer run of
digits is not one, and is never handed to int().
"""
import re
from functools import lru_cache

MAX_DIGITS = 18          # a size or an index; anything longer is not one
MAX_DIMS = 32
MAX_WORD = 64
MAX_BLANKS = 64


class Scanner:
    """A cursor over `text` that reads forward only, each step bounded."""

    def __init__(self, text, pos=0):
        self.text, self.pos = text, pos

    def lit(self, word):
        if self.text.startswith(word, self.pos):
            self.pos += len(word)
            return True
        return False

    def blanks(self):
        end = min(len(self.text), self.pos + MAX_BLANKS)
        while self.pos < end and self.text[self.pos].isspace():
            self.pos += 1

    def digits(self):
        """A run of ASCII digits as text ("" when none, None when longer than MAX_DIGITS)."""
        start, end = self.pos, min(len(self.text), self.pos + MAX_DIGITS + 1)
        while self.pos < end and "0" <= self.text[self.pos] <= "9":
            self.pos += 1
        run = self.text[start:self.pos]
        return None if len(run) > MAX_DIGITS else run

    def int(self, signed=False):
        """An integer (with a leading "-" when `signed`), or None."""
        negative = signed and self.lit("-")
        run = self.digits()
        if not run:
            return None
        return -int(run) if negative else int(run)

    def ints(self, close, signed=False):
        """Integers separated by a comma or blanks up to `close` (consumed), as a tuple; None when
        anything else comes first. "2, 3)" reads as (2, 3), "4,)" as (4,), ")" as ()."""
        found = []
        while len(found) <= MAX_DIMS:
            self.blanks()
            if self.lit(close):
                return tuple(found)
            n = self.int(signed)
            if n is None:
                return None
            found.append(n)
            self.blanks()
            self.lit(",")
        return None

    def word(self):
        """A run of letters, digits and underscores (at most MAX_WORD long), or None."""
        start, end = self.pos, min(len(self.text), self.pos + MAX_WORD + 1)
        while self.pos < end and (self.text[self.pos].isalnum() or self.text[self.pos] == "_"):
            self.pos += 1
        run = self.text[start:self.pos]
        return run if run and len(run) <= MAX_WORD else None


def search(text, anchor, read):
    """The first reading `read(scanner)` gives (not None) at a place where `anchor` occurs, the
    scanner standing just after it; None when it gives nothing anywhere."""
    at = text.find(anchor)
    while at >= 0:
        found = read(Scanner(text, at + len(anchor)))
        if found is not None:
            return found
        at = text.find(anchor, at + 1)
    return None


def fields(text, anchor, *pieces):
    """The integers of the first place that reads as `anchor`, then `pieces` in turn: a str is a
    literal, int an unsigned integer and -1 a signed one; or None."""
    def read(s):
        found = []
        for piece in pieces:
            if isinstance(piece, str):
                if not s.lit(piece):
                    return None
                continue
            n = s.int(signed=piece == -1)
            if n is None:
                return None
            found.append(n)
        return tuple(found)
    return search(text, anchor, read)


def ends_word(text, word):
    """Whether `word` occurs in `text` with no letter, digit or underscore right after it."""
    at = text.find(word)
    while at >= 0:
        after = text[at + len(word):at + len(word) + 1]
        if not (after.isalnum() or after == "_"):
            return True
        at = text.find(word, at + 1)
    return False


# ---- an error's wording, numbers aside ----
# The two patterns below are the only regular expressions that read learner text, and both run in
# linear time: every quantifier is possessive (it never gives back what it took, which is never
# needed: what follows each one cannot match what it took), so an attempt at one place costs the
# length it reads. A number's attempt fails within two characters or succeeds, and the search
# resumes after it. A bracketed shape's attempt reads only blanks, commas and "#" before it fails;
# of those only "#" starts another attempt, the "#x#" form, which reads on only through "x", where
# the first attempt stopped. So no character is read more than a few times.

NUMBERS = re.compile(r"[-+]?+(?:\d++(?:\.\d*+)?+|\.\d++)(?:[eE][-+]?+\d++)?+")
SHAPES = re.compile(r"[(\[]\s*+#(?:\s*+,\s*+#)*+\s*+,?+\s*+[)\]]|#(?:x#)++")


@lru_cache(maxsize=4096)        # a class reads the same mistakes' messages again and again
def wording(message):
    """What an error says with its numbers and shapes written "#" and its blanks collapsed: two
    messages about different sizes or indices of the same failed operation read the same."""
    return " ".join(SHAPES.sub("#", NUMBERS.sub("#", message)).split())
