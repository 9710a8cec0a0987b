"""The roadmap as a learner reads it: each lesson's state, the hints used, and what comes next."""
from rich.markup import escape

STATE_STYLE = {"passed": "green", "failing": "red", "changed": "yellow", "started": "yellow",
               "not started": "white", "coming soon": "dim"}


def print_roadmap(console, wb):
    console.print(f"[bold]{escape(wb.roadmap.title)}[/bold]")
    for number, (title, entries) in enumerate(wb.roadmap.chapters, 1):
        console.print(f"\n  [bold]Chapter {number}: {escape(title)}[/bold]")
        for e in entries:
            state = wb.state(e)
            record = wb.progress.lesson(e.id)
            label, extra = state, ""
            if state == "changed":
                was = "passed" if record.get("passed") else "failing"
                label = f"{was} at the last check; changed since"
            elif state == "failing":
                extra = f" ({record['score']:.0%})"
            if record.get("hints"):
                extra += f"  [dim]hints {record['hints']}/3[/dim]"
            style = STATE_STYLE[state]
            console.print(f"    {e.number:02d} {escape(e.title):<46} [{style}]{label}[/{style}]{extra}")


def numbers(entries):
    """'11-13, 15 and 17': lesson numbers, runs joined."""
    runs, nums = [], [e.number for e in entries]
    for n in nums:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = [f"{a:02d}" if a == b else f"{a:02d}-{b:02d}" for a, b in runs]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def coming_soon(wb, before=None):
    """The lessons not written yet (those before `before`, when given)."""
    entries = wb.roadmap.entries
    if before is not None:
        entries = entries[:entries.index(before)]
    return [e for e in entries if not wb.roadmap.available(e)]


def print_next(console, wb):
    e = wb.next_lesson()
    if e is None:
        later = coming_soon(wb)
        console.print("\n[bold green]Every lesson written so far is passed.[/bold green]"
                      + (f" Lessons {numbers(later)} are coming soon: they are being written."
                         if later else ""))
        return
    skipped = coming_soon(wb, e)
    if skipped:
        console.print(f"\n[dim]Lessons {numbers(skipped)} are coming soon (not written yet), so "
                      "the roadmap goes on with the next lesson that is written.[/dim]")
    console.print(f"\n[bold]Next:[/bold] lesson {e.number:02d}, {escape(e.title)}: edit "
                  f"exercises/{e.id}/solution.py (read exercises/{e.id}/README.md), "
                  f"then `make check L={e.number:02d}`.")
