"""Reading learner text (error messages, traces) in linear time, with no regular expression.

A learner chooses what its exceptions say, at any length and in any shape, so a backtracking pattern
over that text can hold the parent for hours. Here every reading is a forward scan: `search` finds
each place an anchor (a literal) occurs with `str.find`, and from there a Scanner reads a bounded
amount (literals, numbers of at most MAX_DIGITS digits, shapes of at most MAX_DIMS sizes), so a
message of n characters costs O(n) whatever it holds. Numbers come back as ints small enough to be
sizes: a longer run of digits is not one, and is never handed to int().
"""
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

def is_digit(c):
    return "0" <= c <= "9"


def number_end(text, i):
    """Where a number starting at `i` ends ([-+]? (digits [.] digits* | . digits) (e [-+]? digits)?,
    e in either case), or `i` when none starts there."""
    n, j = len(text), i
    if j < n and text[j] in "+-":
        j += 1
    if j < n and is_digit(text[j]):
        while j < n and is_digit(text[j]):
            j += 1
        if j < n and text[j] == ".":
            j += 1
            while j < n and is_digit(text[j]):
                j += 1
    elif j + 1 < n and text[j] == "." and is_digit(text[j + 1]):
        j += 1
        while j < n and is_digit(text[j]):
            j += 1
    else:
        return i
    k = j
    if k < n and text[k] in "eE":
        k += 1
        if k < n and text[k] in "+-":
            k += 1
        if k < n and is_digit(text[k]):
            while k < n and is_digit(text[k]):
                k += 1
            return k
    return j


def numbers_out(text):
    """`text` with every number written as "#"."""
    out, i, n = [], 0, len(text)
    while i < n:
        j = number_end(text, i)
        if j > i:
            out.append("#")
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def shape_end(text, i):
    """Where a shape of numbers already written "#" ends: "(#, #)", "[#,]" or "#x#x#" starting at
    `i`; `i` when none does. Each scan stops at the first character that does not fit, and no
    bracket fits inside one, so scans from different brackets never overlap."""
    n = len(text)
    if text[i] in "([":
        j = i + 1
        while j < n and text[j].isspace():
            j += 1
        if j >= n or text[j] != "#":
            return i
        while True:                      # after a "#"
            j += 1
            while j < n and text[j].isspace():
                j += 1
            if j < n and text[j] == ",":
                j += 1
                while j < n and text[j].isspace():
                    j += 1
                if j < n and text[j] == "#":
                    continue
            return j + 1 if j < n and text[j] in ")]" else i
    if text[i] == "#":
        j = i + 1
        while text.startswith("x#", j):
            j += 2
        return j if j > i + 1 else i
    return i


def shapes_out(text):
    """`text` (numbers already "#") with every shape of them written as one "#"."""
    out, i, n = [], 0, len(text)
    while i < n:
        j = shape_end(text, i)
        if j > i:
            out.append("#")
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def wording(message):
    """What an error says with its numbers and shapes taken out and its blanks collapsed: two
    messages about different sizes or indices of the same failed operation read the same."""
    return " ".join(shapes_out(numbers_out(message)).split())
