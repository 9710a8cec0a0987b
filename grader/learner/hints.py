"""`grader hint`: reveal a lesson's hint tiers one at a time, and show those already seen."""
from rich.markup import escape

from .commands import make
from .prose import print_markdown


def reveal(console, wb, lesson, seen=False):
    """Reveal one more tier (none with `seen`), then print every tier revealed so far."""
    tiers = lesson.prose.hints
    used = wb.progress.lesson(lesson.id).get("hints", 0)
    if not seen and used < len(tiers):
        used += 1
        wb.progress.update(lesson.id, hints=used)
    if used == 0:
        console.print(f"No hints revealed yet: `{make('hint', lesson.entry.number)}` shows the first.")
    for i, (title, body) in enumerate(tiers[:used], 1):
        console.print(f"\n[bold]Hint {i} of {len(tiers)}: {escape(title)}[/bold]")
        print_markdown(console, body)
    if not seen and used == len(tiers):
        console.print("\n[dim]That was the last hint.[/dim]")
