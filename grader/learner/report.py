"""Show a graded lesson: on the terminal for a learner, or as one JSON object for tools.

A hidden case shows its name, what it probes and its verdict in the grader's own words
(`grader.judge.shown`); where the code was and what it printed are shown for public cases only.
"""
from rich.markup import escape

from grader.display import plural, show, shape_of
from grader.judge.grade import shown_name
from grader.judge.shown import verdict_text
from grader.runner.child.runner import MAX_CAPTURE

from .commands import make

MAX_PRINTED_LINES = 12
MAX_LINE = 200
MAX_NAMES = 4


def as_json(result):
    """The machine-readable form of a Result (the `--json` contract)."""
    return {
        "lesson": result.lesson.id,
        "passed": result.passed,
        "score": round(result.score, 6),
        "cases": [{"name": r.case.name, "public": r.case.public, "passed": r.verdict.passed,
                   "message": verdict_text(r)} for r in result.cases],
        "diagnosis": [{"mistake": d.mistake, "message": d.message} for d in result.diagnosis],
        "constraints": [{"rule": v.rule, "line": v.line, "message": v.message}
                        for v in result.violations],
        "error": result.error,
        "error_line": result.error_line,
    }


def failed_json(lesson_id, error):
    """The `--json` object for a file the grader could not grade because of its own failure."""
    return {"lesson": lesson_id, "passed": False, "score": 0.0, "cases": [], "diagnosis": [],
            "constraints": [], "error": error, "error_line": None}


def call_text(call):
    args = [show(a, summarize=True) for a in call.args]
    args += [f"{k}={show(v, summarize=True)}" for k, v in call.kwargs.items()]
    return f"{call.fn}({', '.join(args)})"


def printed(text, lines=None, chars=None, indent=8):
    """What the code printed, at most MAX_PRINTED_LINES lines, each cut at MAX_LINE characters;
    then how many more lines it printed, and whether the grader kept only the first part."""
    shown = text.splitlines()[:MAX_PRINTED_LINES]
    lines = len(text.splitlines()) if lines is None else lines
    cut = chars is not None and chars > len(text)
    out = [line if len(line) <= MAX_LINE else line[:MAX_LINE] + " …" for line in shown]
    notes = []
    if lines > len(shown):
        notes.append(f"{lines - len(shown):,} more {'line' if lines - len(shown) == 1 else 'lines'}"
                     " not shown")
    if cut:
        notes.append(f"it printed {chars:,} characters; the grader keeps the first {MAX_CAPTURE:,}")
    if notes:
        out.append(f"... ({'; '.join(notes)})")
    pad = " " * indent
    return "\n".join(f"{pad}[dim]| {escape(line)}[/dim]" for line in out)


def public_lines(r):
    """A failing public case: its input, expected and got."""
    lines = [f"      input:    {escape(r.case.probe or call_text(r.case.calls[0]))}"]
    if r.expected.status == "ok" and len(r.expected.outputs) == 1:
        lines.append(f"      expected: {escape(show(r.expected.outputs[0], summarize=True))}")
        if r.outcome.status == "ok" and r.outcome.outputs:
            got = r.outcome.outputs[0]
            shape = shape_of(got)
            lines.append(f"      got:      {escape(show(got, summarize=True))}"
                         + (f"  [dim](shape {tuple(shape)})[/dim]" if shape else ""))
    return lines


def where_line(r):
    """Where the learner's code was, on a public case: the innermost line of its own traceback (or
    of its stack at a time-out)."""
    outcome = r.outcome
    error = outcome.error or {}
    trace = outcome.where if outcome.status == "timeout" else error.get("trace")
    if not r.case.public or not trace or error.get("type") == "NotImplementedError":
        return []
    verb = "your code was at" if outcome.status == "timeout" else "where"
    if error.get("given"):
        return [f"      [dim]where: {escape(error['called_from'])} (raised inside the given "
                f"`{escape(error['given'])}`: {escape(trace[-1])})[/dim]"]
    return [f"      [dim]{verb}: {escape(trace[-1])}[/dim]"]


def names(results):
    shown = [r.case.name for r in results[:MAX_NAMES]]
    more = len(results) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def case_lines(cases):
    """The cases pytest-style, but so that a wrong answer fits on one screen: passing cases on one
    line, public failures in full, hidden failures with the same message together, once."""
    out = []
    passed = [r for r in cases if r.verdict.passed]
    if passed:
        out.append(f"  [green]✓[/green] {plural(len(passed), 'case')} passed: {escape(names(passed))}")
    groups = {}
    for r in cases:
        if not r.verdict.passed and not (r.case.public and r.outcome.status == "ok"):
            groups.setdefault((r.outcome.status, verdict_text(r)), []).append(r)
    for r in cases:
        if r.verdict.passed:
            continue
        said = verdict_text(r)
        if r.case.public and r.outcome.status == "ok":
            out.append(f"  [red]✗ {escape(r.case.name)}[/red]: {escape(said)}")
            out += public_lines(r) + where_line(r)
            continue
        group = groups.pop((r.outcome.status, said), None)
        if group is None:
            continue
        if r.outcome.status == "not-run":
            out.append(f"  [dim]· {plural(len(group), 'case')} not run ({escape(r.outcome.detail)})"
                       "[/dim]")
        elif len(group) == 1:
            out.append(f"  [red]✗ {escape(r.case.name)}[/red]: {escape(said)}")
            if r.case.probe:
                out.append(f"      [dim]probes: {escape(r.case.probe)}[/dim]")
        elif r.outcome.status == "timeout":
            out.append(f"  [red]✗ {len(group)} cases timed out[/red]: {escape(r.outcome.detail)}")
            out.append(f"      [dim]cases: {escape(names(group))}[/dim]")
        else:
            out.append(f"  [red]✗ the same in {len(group)} cases[/red]: {escape(said)}")
            out.append(f"      [dim]cases: {escape(names(group))}[/dim]")
        if r.outcome.status != "not-run":
            out += where_line(next((g for g in group if where_line(g)), r))
    return out


def output_lines(cases):
    """What the learner's code printed during the first public case (or the first that printed),
    once; and the warnings it raised during the first public case that raised any, as warnings."""
    lines = []
    r = next((r for r in cases if r.case.public and r.outcome.stdout.strip()), None)
    if r is not None:
        lines += [f"  your code printed during {escape(r.case.name)}:",
                  printed(r.outcome.stdout, r.outcome.stdout_lines or None,
                          r.outcome.stdout_chars or None)]
    w = next((r for r in cases if r.case.public and r.outcome.warnings.strip()), None)
    if w is not None:
        lines += [f"  warnings raised during {escape(w.case.name)} (Python's or numpy's, not "
                  "printed by your code):", printed(w.outcome.warnings)]
    return lines


def hint_line(result, revealed):
    """The next step for a learner whose lesson fails: which hint to open. "Addresses this" speaks
    of the diagnosis shown above it; a pointer that comes from the failing cases says so."""
    tiers = result.lesson.prose.hints
    n = result.lesson.entry.number
    best, about_cases = result.pointer or (None, None)
    addresses = "addresses this" if about_cases is None else (
        f"is about what {'the failing case' if len(about_cases) == 1 else 'the failing cases'} "
        f"({escape(names(about_cases))}) {'probes' if len(about_cases) == 1 else 'probe'}")
    if best and best <= revealed:
        return (f"Hint {best} ({tiers[best - 1][0]}) {addresses}; you have seen it: "
                f"`{make('hint', n, SEEN=1)}` shows it again.")
    if revealed >= len(tiers):
        return (f"You have seen all {len(tiers)} hints: `{make('hint', n, SEEN=1)}` "
                "shows them again.")
    tier = revealed + 1
    if best and best > tier:
        return (f"Stuck? Hint {best} ({tiers[best - 1][0]}) {addresses}; `{make('hint', n)}` "
                f"reveals one tier per call, starting with hint {tier}: {tiers[tier - 1][0]}.")
    about = f" (it {addresses})" if best == tier else ""
    return f"Stuck? `{make('hint', n)}` reveals hint {tier}: {tiers[tier - 1][0]}{about}."


def render(console, result, revealed=0, own_file=True):
    """Print a Result for a learner: what passed, what failed and why, what next. `own_file`: the
    file is the lesson's exercise (so `make reset` can bring back its stub)."""
    e = result.lesson.entry
    total = len(result.cases)
    if result.passed:
        status = "[bold green]passed[/bold green]"
    elif result.violations:
        status = "[bold red]not passed: a rule is broken[/bold red]"
    elif result.error:
        status = "[bold red]could not be graded[/bold red]"
    else:
        status = f"[bold red]{result.passed_count}/{plural(total, 'case')} passed[/bold red]"
    console.print(f"[bold]Lesson {e.number:02d} · {escape(e.title)}[/bold]  {status}")
    if result.error:
        where = (f" [dim](at {escape(shown_name(result.path))}, line {result.error_line})[/dim]"
                 if result.error_line else "")
        console.print(f"  [red]{escape(result.error)}[/red]{where}")
        if own_file and not result.path.is_file():
            console.print(f"  `{make('reset', e.number)}` brings back the lesson's stub.")
    if result.stdout.strip():
        console.print("  your file printed while it was imported:")
        console.print(printed(result.stdout, result.printed.get("stdout_lines"),
                              result.printed.get("stdout_chars")))
    if (result.printed or {}).get("warnings", "").strip():
        console.print("  warnings raised while your file was imported:")
        console.print(printed(result.printed["warnings"]))
    for v in result.violations:
        console.print(f"  [red]✗ rule broken[/red]: {escape(v.message)}")
    untouched = [r for r in result.cases if r.verdict.message == "not implemented yet"]
    if untouched and len(untouched) == len(result.cases):
        functions = ", ".join(f"`{f}`" for f in result.lesson.spec.functions)
        console.print(f"  [yellow]not implemented yet:[/yellow] write {functions} in "
                      f"{escape(shown_name(result.path))} ({plural(len(untouched), 'case')} waiting)")
    elif not (result.error and all(r.outcome.status == "not-run" for r in result.cases)):
        for line in case_lines(result.cases):
            console.print(line, highlight=False)
        if any(not r.verdict.passed and r.case.public and r.outcome.status == "ok"
               for r in result.cases):
            console.print("  [dim]Numbers are shown rounded to 6 significant digits.[/dim]")
    for line in output_lines(result.cases):
        console.print(line, highlight=False)
    for d in result.diagnosis:
        console.print(f"\n  [bold yellow]{d.label}:[/bold yellow] {escape(d.message)}")
    if not result.passed and not result.error:
        console.print(f"\n  {escape(hint_line(result, revealed))}")
