"""Show a graded lesson: on the terminal for a learner, or as one JSON object for tools."""
from pathlib import Path

from rich.markup import escape

from grader.display import show, shape_of

MAX_PRINTED_LINES = 12


def as_json(result):
    """The machine-readable form of a Result (the `--json` contract)."""
    return {
        "lesson": result.lesson.id,
        "passed": result.passed,
        "score": round(result.score, 6),
        "cases": [{"name": r.case.name, "public": r.case.public, "passed": r.verdict.passed,
                   "message": r.verdict.message} for r in result.cases],
        "diagnosis": [{"mistake": d.mistake, "message": d.message} for d in result.diagnosis],
        "constraints": [{"rule": v.rule, "line": v.line, "message": v.message}
                        for v in result.violations],
        "error": result.error,
    }


def call_text(call):
    args = [show(a, summarize=True) for a in call.args]
    args += [f"{k}={show(v, summarize=True)}" for k, v in call.kwargs.items()]
    return f"{call.fn}({', '.join(args)})"


def printed(text):
    lines = text.rstrip().splitlines()
    more = len(lines) - MAX_PRINTED_LINES
    lines = lines[:MAX_PRINTED_LINES] + ([f"... ({more} more lines)"] if more > 0 else [])
    return "\n".join(f"        [dim]| {escape(l)}[/dim]" for l in lines)


def case_lines(r):
    name = escape(r.case.name)
    if r.verdict.passed:
        return [f"  [green]✓[/green] {name}"]
    lines = [f"  [red]✗ {name}[/red]: {escape(r.verdict.message)}"]
    if r.case.public:
        lines.append(f"      input:    {escape(r.case.probe or call_text(r.case.calls[0]))}")
        if r.expected.status == "ok" and len(r.expected.outputs) == 1:
            lines.append(f"      expected: {escape(show(r.expected.outputs[0], summarize=True))}")
            if r.outcome.status == "ok" and r.outcome.outputs:
                got = r.outcome.outputs[0]
                shape = shape_of(got)
                lines.append(f"      got:      {escape(show(got, summarize=True))}"
                             + (f"  [dim](shape {tuple(shape)})[/dim]" if shape else ""))
    elif r.case.probe:
        lines.append(f"      [dim]probes: {escape(r.case.probe)}[/dim]")
    if r.outcome.error and r.outcome.error.get("trace") and r.outcome.error["type"] not in (
            "NotImplementedError", "MissingFunction"):
        lines.append("      [dim]where: " + escape(r.outcome.error["trace"][-1]) + "[/dim]")
    if r.outcome.stdout.strip():
        lines.append("      your code printed:")
        lines.append(printed(r.outcome.stdout))
    return lines


def hint_line(result, revealed):
    """The next step for a learner whose lesson fails: which hint to open."""
    tiers = result.lesson.prose.hints
    n = result.lesson.entry.number
    best = result.hint
    if best and best <= revealed:
        return (f"Hint {best} ({tiers[best - 1][0]}) addresses this; you have seen it: "
                f"`grader hint {n:02d} --seen` shows it again.")
    if revealed >= len(tiers):
        return f"You have seen all {len(tiers)} hints: `grader hint {n:02d} --seen` shows them again."
    tier = revealed + 1
    if best and best > tier:
        return (f"Stuck? Hint {best} ({tiers[best - 1][0]}) addresses this; `make hint L={n:02d}` "
                f"reveals one tier per call, starting with hint {tier}: {tiers[tier - 1][0]}.")
    about = " (it addresses this)" if best == tier else ""
    return f"Stuck? `make hint L={n:02d}` reveals hint {tier}: {tiers[tier - 1][0]}{about}."


def shown_path(path):
    """A path relative to the current folder when it lies below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def render(console, result, revealed=0):
    """Print a Result for a learner, pytest-style: what passed, what failed and why, what next."""
    e = result.lesson.entry
    total = len(result.cases)
    status = ("[bold green]passed[/bold green]" if result.passed
              else f"[bold red]{result.passed_count}/{total} cases passed[/bold red]")
    console.print(f"[bold]Lesson {e.number:02d} · {escape(e.title)}[/bold]  {status}")
    if result.error:
        where = f" [dim]({escape(shown_path(result.path))}:{result.error_line})[/dim]" if result.error_line else ""
        console.print(f"  [red]{escape(result.error)}[/red]{where}")
    if result.stdout.strip():
        console.print("  your file printed while it was imported:")
        console.print(printed(result.stdout))
    for v in result.violations:
        console.print(f"  [red]✗ rule broken[/red] (line {v.line}): {escape(v.message)}")
    untouched = [r for r in result.cases if r.verdict.message == "not implemented yet"]
    if untouched and len(untouched) == len(result.cases):
        names = ", ".join(f"`{f}`" for f in result.lesson.spec.functions)
        console.print(f"  [yellow]not implemented yet:[/yellow] write {names} in {escape(shown_path(result.path))}"
                      f" ({len(untouched)} cases are waiting)")
    elif not (result.error and all(r.outcome.status == "not-run" for r in result.cases)):
        for r in result.cases:
            for line in case_lines(r):
                console.print(line, highlight=False)
    for d in result.diagnosis:
        console.print(f"\n  [bold yellow]{d.label}:[/bold yellow] {escape(d.message)}")
    if not result.passed:
        console.print(f"\n  {escape(hint_line(result, revealed))}")
