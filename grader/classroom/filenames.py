"""What a file or folder name says, read the way people and their browsers name files: in any case,
with any separators (`01_Softmax`, `01.softmax`, `Lesson01`), with a copy's suffix (`01-softmax
(1).py`, `Copy of 01-softmax.py`, `01-softmax - Copy.py`, `01-softmax copy 2.py`) or a version word
(`01-softmax final.py`, `01_Softmax_v2.py`).

A name is cut into words (at every character that is not a letter or a digit, between a lower-case
and an upper-case letter, and between letters and digits); words that only say which copy or version
it is may end it, and a few (`copy of`, `my`, `lesson`) may start it. `keys` gives what is left, as
the lessons' names are compared (lower case, no separators), from the longest reading to the
shortest; `version` ranks two files' names when their times cannot tell which is newer.
"""
import re

TAIL = {"copy", "copied", "another", "final", "finished", "draft", "new", "newer", "newest",
        "latest", "last", "update", "updated", "revised", "revision", "rev", "edit", "edited",
        "fix", "fixed", "done", "complete", "completed", "working", "works", "submission",
        "submit", "submitted", "attempt", "try", "old", "older", "backup", "version", "ver", "v",
        "st", "nd", "rd", "th", "solution", "answer", "answers", "mine", "of"}
HEAD = {"copy", "of", "my", "lesson", "exercise", "ex"}
FINAL = {"final", "finished", "done", "complete", "completed", "submission", "submit", "submitted"}
MAX_WORDS = 64


def words(stem):
    """The words of a name, lower-cased."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])", " ",
                    stem)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w][:MAX_WORDS]


def tail_word(w):
    return w in TAIL or w.isdigit()


def keys(stem):
    """The readings of a name, as lesson names are compared, longest first (the name whole, then
    without the copy and version words it ends with, then without the words it starts with)."""
    ws = words(stem)
    end = len(ws)
    while end > 1 and tail_word(ws[end - 1]):
        end -= 1
    start = 0
    while start < end - 1 and ws[start] in HEAD:
        start += 1
    found = []
    for first in dict.fromkeys((0, start)):
        for last in range(len(ws), max(end, first + 1) - 1, -1):
            key = "".join(ws[first:last])
            if key and key not in found:
                found.append(key)
    return found


def version(stem):
    """How late a name says its file is: (says it is final, the largest number after the name)."""
    ws = words(stem)
    end = len(ws)
    while end > 1 and tail_word(ws[end - 1]):
        end -= 1
    tail = ws[end:]
    return (any(w in FINAL for w in tail), max((int(w[:12]) for w in tail if w.isdigit()), default=0))
