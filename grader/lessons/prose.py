"""A lesson's prose (lesson.md): its sections, hint tiers, questions and doctest-style examples.

Sections are `## ` headings; the hints and the Check yourself questions are `### ` headings below
their section. Examples sit in ```python blocks as `>>> ` lines, each expression followed by the
output the reference gives, rounded to 6 significant digits.

A number in the running text that the author computed carries a mark right after it, an HTML
comment holding the expression it equals: `` `[0.248255, 0.248255, 0.50349]`<!-- = expr --> `` (the
value in a code span) or `477<!-- = expr -->` (a bare number). The marks are taken out of every
section's text, so learners never see them, and kept as `Mark`s for `grader verify`.
"""
import re
from dataclasses import dataclass

SECTIONS = ("Learn it", "Your turn", "Examples", "Hints", "Solution", "Watch out", "Check yourself")
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
NUMBER = r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
MARK_START = re.compile(r"<!--\s*=")
MARK = re.compile(rf"(?:`(?P<code>(?:[^`\n]|\n(?![ \t]*\n))+)`|(?<![\w.])(?P<bare>{NUMBER}))[ \t]*"
                  r"<!--\s*=(?P<expr>.*?)-->", re.S)


class ProseError(ValueError):
    """lesson.md does not have the shape a lesson needs."""


@dataclass(frozen=True)
class Example:
    section: str
    setup: tuple      # statements run before the expression
    source: str       # the expression, e.g. "softmax(np.array([1.0, 2.0]))"
    expected: str     # the output text as written


@dataclass(frozen=True)
class Mark:
    """A number in the prose that the author marked as computed: `shown` must equal `source`."""
    section: str
    shown: str        # the value as written, e.g. "[0.0743196, 0.305695, 0.619985]"
    source: str       # the expression it equals, evaluated like an example's
    setup: tuple = ()  # none of its own: the marks share one scope, built in order


@dataclass(frozen=True)
class Prose:
    sections: dict    # title -> markdown body, marks taken out
    hints: tuple      # (title, body) per tier
    questions: tuple  # (question, answer)
    examples: tuple
    marks: tuple = ()

    def public_examples(self):
        return [e for e in self.examples if e.section == "Examples"]


def split(text, level):
    """(heading, body) pairs for headings of the given level; text before the first is dropped."""
    marker = "#" * level + " "
    parts = re.split(rf"^{re.escape(marker)}(.+)$", text, flags=re.M)
    return [(parts[i].strip(), parts[i + 1].strip("\n")) for i in range(1, len(parts), 2)]


def doctests(section, body):
    """The examples in one section's ```python blocks."""
    found = []
    for block in FENCE.findall(body):
        setup, current, output = [], None, []

        def flush():
            if current is not None:
                if output:
                    found.append(Example(section, tuple(setup), current, " ".join(output)))
                else:
                    setup.append(current)

        for line in block.splitlines():
            if line.startswith(">>> "):
                flush()
                current, output = line[4:], []
            elif line.startswith("... ") and current is not None and not output:
                current += "\n" + line[4:]
            elif line.strip() and current is not None:
                output.append(line.strip())
        flush()
    return found


def value_text(match):
    return f"`{match['code']}`" if match["code"] is not None else match["bare"]


def take_marks(section, body):
    """The section's text without its marks, and the marks."""
    if not MARK_START.search(body):
        return body, ()
    marks = tuple(Mark(section, m["code"] or m["bare"], " ".join(m["expr"].split()))
                  for m in MARK.finditer(body))
    clean = MARK.sub(value_text, body)
    stray = MARK_START.search(clean)
    if stray:
        raise ProseError(f"a computed-number mark in {section} follows no number or code span: "
                         f"{clean[max(0, stray.start() - 40):stray.end() + 40]!r}")
    return clean, marks


def parse(text):
    taken = {title: take_marks(title, body) for title, body in split(text, 2)}
    sections = {title: body for title, (body, _) in taken.items()}
    marks = tuple(m for _, found in taken.values() for m in found)
    missing = [s for s in SECTIONS if s not in sections]
    if missing:
        raise ProseError(f"lesson.md lacks the section(s): {', '.join(missing)}")
    hints = tuple(split(sections["Hints"], 3))
    if len(hints) != 3:
        raise ProseError(f"lesson.md needs three hint tiers under Hints, found {len(hints)}")
    questions = tuple(split(sections["Check yourself"], 3))
    if not questions:
        raise ProseError("lesson.md needs at least one question under Check yourself")
    examples = tuple(e for title, body in sections.items() for e in doctests(title, body))
    if not any(e.section == "Examples" for e in examples):
        raise ProseError("lesson.md needs at least one `>>> ` example under Examples")
    return Prose(sections, hints, questions, examples, marks)
