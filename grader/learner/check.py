"""`grader check`: grade the learner's lessons, show what is right and wrong, and what comes next."""
import contextlib
import json
import traceback
from pathlib import Path

import click
from rich.markup import escape

from grader.display import plural
from grader.judge.grade import grade_file
from grader.runner.workers import Pool, preload_for

from . import report, status, walkthrough, warm


def names(lessons):
    """Lesson names as given, commas allowed (`check 01,02` is `check 01 02`)."""
    return [n.strip() for name in lessons for n in str(name).split(",") if n.strip()]


class CaseProgress:
    """A transient line while a check runs: which case, and how many timed out (on a terminal)."""

    def __init__(self, console, lesson):
        self.console, self.lesson, self.timeouts = console, lesson, 0
        self.status = None

    def __enter__(self):
        if self.console.is_terminal:
            self.status = self.console.status(f"Checking lesson {self.lesson.entry.number:02d}…")
            self.status.start()
        return self

    def __call__(self, index, outcome):
        self.timeouts += outcome.status == "timeout"
        if self.status is not None:
            late = f"; {plural(self.timeouts, 'case')} timed out" if self.timeouts else ""
            total = len(self.lesson.cases)
            self.status.update(f"Checking lesson {self.lesson.entry.number:02d}: case "
                               f"{min(index + 2, total)} of {total}{late}…")

    def __exit__(self, *exc):
        if self.status is not None:
            self.status.stop()


def check_one(console, wb, lesson, path, as_json, pool, progress=None):
    """Grade one file and show it; True when it passes. A failure of the grader itself is reported
    as such (in the JSON object's `error` with --json), never as a traceback."""
    own = path == wb.exercise(lesson.entry)
    try:
        result = grade_file(lesson, path, pool, progress=progress)
    except Exception as exc:  # a bug in the grader or the lesson, not in the learner's file
        why = f"the grader failed while grading this file: {type(exc).__name__}: {exc}"
        if as_json:
            click.echo(json.dumps(report.failed_json(lesson.id, why)))
        else:
            console.print(f"[bold]Lesson {lesson.entry.number:02d}[/bold]  [red]{escape(why)}[/red]"
                          "\n  [dim]This is a fault in the grader, not in your code; please report "
                          "it with the lines below.[/dim]")
            console.print(escape("".join(traceback.format_exception(exc)[-3:])), style="dim")
        return False
    if own:
        wb.record(lesson, result)
    if as_json:
        click.echo(json.dumps(report.as_json(result)))
    else:
        record = wb.progress.lesson(lesson.id)
        report.render(console, result, record.get("hints", 0), own)
        if result.passed and own and not record.get("watch_out_shown"):
            walkthrough.watch_out(console, lesson)
            wb.progress.update(lesson.id, watch_out_shown=True)
        elif result.passed:
            walkthrough.walkthrough_line(console, lesson)
    return result.passed


def pool_for(chosen, sandbox):
    """The warm pool to check `chosen` on: the warm check server's own (kept open), or one of this
    check's own."""
    if warm.KEPT is not None and chosen and not sandbox:
        return contextlib.nullcontext(warm.KEPT.pool(preload_for(chosen)))
    return Pool(1 if chosen else 0, sandbox, preload_for(chosen))


def run(console, wb, lessons, file, as_json, sandbox):
    """Check the named lessons (default: every lesson started); returns the exit status: 0 when
    every checked lesson passes (or none is started yet, and none was named), 1 otherwise."""
    chosen = [wb.lesson(name) for name in names(lessons)]
    if not chosen:
        chosen = [wb.lesson(e.id) for e in wb.roadmap.entries
                  if wb.roadmap.available(e) and wb.started(e)]
        if not chosen and not as_json:
            status.print_roadmap(console, wb)
            console.print("\nNo lesson is started yet, so there was nothing to check.")
    ok = True
    with pool_for(chosen, sandbox) as pool:
        for lesson in chosen:
            path = Path(file) if file else wb.exercise(lesson.entry)
            shown = contextlib.nullcontext() if as_json else CaseProgress(console, lesson)
            with shown as progress:
                ok = check_one(console, wb, lesson, path, as_json, pool, progress) and ok
            if not as_json:
                console.print()
    if not as_json and not file:
        if chosen and ok:
            console.print(f"[green]Every lesson checked passes "
                          f"({plural(len(chosen), 'lesson')}).[/green]")
        status.print_next(console, wb)
    return 0 if ok else 1
