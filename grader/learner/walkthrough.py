"""After a pass: the lesson's Watch out items, and the Solution walkthrough (`make solution`)."""
import re

from rich.markup import escape

from .commands import make
from .prose import plain_math, print_markdown


def watch_out(console, lesson):
    """Print Watch out under a passed lesson, and how to read the walkthrough."""
    console.print("\n  [bold]Watch out[/bold] (the traps this lesson sets, now that you passed):")
    items = [i.strip() for i in re.split(r"^- ", lesson.prose.sections["Watch out"], flags=re.M)
             if i.strip()]
    for item in items:
        console.print(f"  - {escape(' '.join(plain_math(item).split()))}", soft_wrap=False)
    walkthrough_line(console, lesson)


def walkthrough_line(console, lesson):
    n = lesson.entry.number
    console.print(f"\n  [dim]The solution walkthrough, and Watch out again: `{make('solution', n)}`."
                  "[/dim]")


def solution(console, lesson, passed):
    """Print the Solution walkthrough, or refuse politely before a pass; returns whether shown."""
    n = lesson.entry.number
    if not passed:
        console.print(f"The walkthrough of lesson {n:02d} opens once you pass it: `make check "
                      f"L={n:02d}` first. Until then, `make hint L={n:02d}` helps one step at a time.")
        return False
    console.print(f"[bold]Lesson {n:02d} · {escape(lesson.entry.title)}: the solution[/bold]\n",
                  soft_wrap=False)
    print_markdown(console, lesson.prose.sections["Solution"])
    console.print("\n[bold]Watch out[/bold]\n")
    print_markdown(console, lesson.prose.sections["Watch out"])
    return True
