"""After a pass: the lesson's Watch out items, and the Solution walkthrough (`grader solution`)."""
import re

from rich.markdown import Markdown
from rich.markup import escape


def watch_out(console, lesson):
    """Print Watch out under a passed lesson, and how to read the walkthrough."""
    n = lesson.entry.number
    console.print("\n  [bold]Watch out[/bold] (the traps this lesson sets, now that you passed):")
    items = [i.strip() for i in re.split(r"^- ", lesson.prose.sections["Watch out"], flags=re.M)
             if i.strip()]
    for item in items:
        console.print(f"  - {escape(' '.join(item.split()))}")
    console.print(f"\n  [dim]The solution walkthrough: `grader solution {n:02d}`.[/dim]")


def solution(console, lesson, passed):
    """Print the Solution walkthrough, or refuse politely before a pass; returns whether shown."""
    n = lesson.entry.number
    if not passed:
        console.print(f"The walkthrough of lesson {n:02d} opens once you pass it: `make check "
                      f"L={n:02d}` first. Until then, `make hint L={n:02d}` helps one step at a time.")
        return False
    console.print(f"[bold]Lesson {n:02d} · {escape(lesson.entry.title)}: the solution[/bold]\n")
    console.print(Markdown(lesson.prose.sections["Solution"]))
    console.print("\n[bold]Watch out[/bold]\n")
    console.print(Markdown(lesson.prose.sections["Watch out"]))
    return True
