"""The `grader` command: the learner's check, hints and roadmap, and the author's build and verify."""
import contextlib
import json
import os
import re
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich import progress as bars
from rich.markdown import Markdown
from rich.markup import escape

from grader.lessons import build as builder
from grader.learner import report, walkthrough
from grader.lessons import roadmap
from .errors import GraderError
from grader.judge.grade import grade_file
from grader.lessons.lesson import LessonError, load
from grader.learner.progress import Progress
from grader.runner.workers import GRADER_HOME, Pool, preload_for

console = Console(highlight=False, soft_wrap=True)


class Workbook:
    """The repository the commands work on: its roadmap and the learner's progress."""

    def __init__(self, root):
        self.root = Path(root)
        self.roadmap = roadmap.load(self.root)
        self.progress = Progress(self.root)
        self.lock = builder.load_lock(self.root)

    def started(self, entry):
        return builder.started(self.root, entry, self.lock)

    def lesson(self, name):
        return load(self.roadmap, name)

    def exercise(self, entry):
        return self.root / "exercises" / entry.id / "solution.py"

    def state(self, entry):
        if not self.roadmap.available(entry):
            return "coming soon"
        record = self.progress.lesson(entry.id)
        if record.get("passed"):
            return "passed"
        if record.get("score") is not None:
            return "failing"
        return "started" if self.started(entry) else "not started"

    def next_lesson(self):
        return next((e for e in self.roadmap.entries
                     if self.roadmap.available(e) and self.state(e) != "passed"), None)


def fail(message, code=2):
    console.print(f"[red]{escape(message)}[/red]")
    sys.exit(code)


@click.group()
@click.option("--root", type=click.Path(file_okay=False), default=None, hidden=True,
              help="The workbook's folder (default: the one holding this grader).")
@click.pass_context
def cli(ctx, root):
    """The Transformer Workbook: check your lessons, get hints, follow the roadmap."""
    ctx.obj = Workbook(root or os.environ.get("WORKBOOK_ROOT") or GRADER_HOME)


STATE_STYLE = {"passed": "green", "failing": "red", "started": "yellow", "not started": "white",
               "coming soon": "dim"}


def print_roadmap(wb):
    console.print(f"[bold]{escape(wb.roadmap.title)}[/bold]")
    for number, (title, entries) in enumerate(wb.roadmap.chapters, 1):
        console.print(f"\n  [bold]Chapter {number}: {escape(title)}[/bold]")
        for e in entries:
            state = wb.state(e)
            record = wb.progress.lesson(e.id)
            extra = ""
            if state == "failing":
                extra = f" ({record['score']:.0%})"
            if record.get("hints"):
                extra += f"  [dim]hints {record['hints']}/3[/dim]"
            console.print(f"    {e.number:02d} {escape(e.title):<46} "
                          f"[{STATE_STYLE[state]}]{state}[/{STATE_STYLE[state]}]{extra}")


def print_next(wb):
    e = wb.next_lesson()
    if e is None:
        console.print("\n[bold green]Every lesson written so far is passed.[/bold green]")
    else:
        console.print(f"\n[bold]Next:[/bold] lesson {e.number:02d}, {escape(e.title)}: edit "
                      f"exercises/{e.id}/solution.py (read exercises/{e.id}/README.md), "
                      f"then `make check L={e.number:02d}`.")


@cli.command()
@click.pass_obj
def status(wb):
    """The roadmap: every lesson's state and the hints you used."""
    print_roadmap(wb)
    print_next(wb)


def check_one(wb, lesson, path, as_json, pool):
    result = grade_file(lesson, path, pool)
    if path == wb.exercise(lesson.entry):
        wb.progress.update(lesson.id, passed=result.passed, score=round(result.score, 6))
    if as_json:
        click.echo(json.dumps(report.as_json(result)))
    else:
        report.render(console, result, wb.progress.lesson(lesson.id).get("hints", 0))
        if result.passed:
            walkthrough.watch_out(console, lesson)
    return result.passed


@cli.command()
@click.argument("lessons", nargs=-1)
@click.option("--file", "file", type=click.Path(dir_okay=False), default=None,
              help="Grade this file instead of the lesson's exercise (one lesson only).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per lesson.")
@click.option("--sandbox", is_flag=True, help="Run your code in the bubblewrap sandbox, as class "
              "grading does.")
@click.pass_obj
def check(wb, lessons, file, as_json, sandbox):
    """Check LESSONS (default: every lesson you started), then point at the next one."""
    if file and len(lessons) != 1:
        fail("--file grades one lesson: name it, as in `grader check 01 --file mine.py`.")
    if lessons:
        chosen = [wb.lesson(name) for name in lessons]
    else:
        chosen = [wb.lesson(e.id) for e in wb.roadmap.entries
                  if wb.roadmap.available(e) and wb.started(e)]
        if not chosen and not as_json:
            print_roadmap(wb)
    ok = True
    with Pool(1 if chosen else 0, sandbox, preload_for(chosen)) as pool:
        for lesson in chosen:
            path = Path(file) if file else wb.exercise(lesson.entry)
            ok = check_one(wb, lesson, path, as_json, pool) and ok
            if not as_json:
                console.print()
    if not lessons:
        ok = ok and wb.next_lesson() is None
        if not as_json:
            print_next(wb)
    sys.exit(0 if ok else 1)


@cli.command()
@click.argument("lesson", required=False)
@click.option("--interval", default=0.3, hidden=True, type=float)
@click.pass_obj
def watch(wb, lesson, interval):
    """Re-check LESSON (default: your next lesson) every time you save it; Ctrl-C stops."""
    entry = wb.lesson(lesson).entry if lesson else wb.next_lesson()
    if entry is None:
        fail("Every lesson written so far is passed; name one to watch it anyway.")
    lesson = wb.lesson(entry.id)
    path = wb.exercise(entry)
    seen = None
    with Pool(preload=preload_for([lesson])) as pool, contextlib.suppress(KeyboardInterrupt):
        while True:
            content = path.read_bytes() if path.is_file() else None
            if content != seen:
                seen = content
                console.clear()
                started = time.monotonic()
                check_one(wb, lesson, path, False, pool)
                console.print(f"\n[dim]Checked at {time.strftime('%H:%M:%S')} in "
                              f"{time.monotonic() - started:.2f} s; watching exercises/{entry.id}/"
                              "solution.py for changes (Ctrl-C stops).[/dim]")
            time.sleep(interval)


@cli.command()
@click.argument("lesson")
@click.option("--seen", is_flag=True, help="Show the hints you already revealed, and no more.")
@click.pass_obj
def hint(wb, lesson, seen):
    """Reveal one more hint tier for LESSON (three in all)."""
    lesson = wb.lesson(lesson)
    tiers = lesson.prose.hints
    used = wb.progress.lesson(lesson.id).get("hints", 0)
    if not seen and used < len(tiers):
        used += 1
        wb.progress.update(lesson.id, hints=used)
    if used == 0:
        console.print(f"No hints revealed yet: `grader hint {lesson.entry.number:02d}` shows the first.")
    for i, (title, body) in enumerate(tiers[:used], 1):
        console.print(f"\n[bold]Hint {i} of {len(tiers)}: {escape(title)}[/bold]")
        console.print(Markdown(body))
    if not seen and used == len(tiers):
        console.print("\n[dim]That was the last hint.[/dim]")


@cli.command()
@click.argument("lesson")
@click.pass_obj
def solution(wb, lesson):
    """Show LESSON's solution walkthrough and Watch out, once you have passed it."""
    lesson = wb.lesson(lesson)
    shown = walkthrough.solution(console, lesson, wb.progress.lesson(lesson.id).get("passed"))
    sys.exit(0 if shown else 1)


@cli.group()
def export():
    """Export the lessons for other tools."""


@export.command("nbgrader")
@click.argument("course", type=click.Path(file_okay=False))
@click.option("--lessons", default=None, help="Lessons to export, by number or slug, "
              "comma-separated (default: every written lesson).")
@click.option("--assignment", default=None, help="Put every exported lesson in this one "
              "assignment (default: one assignment per chapter).")
@click.pass_obj
def export_nbgrader(wb, course, lessons, assignment):
    """Write an nbgrader course to COURSE: source notebooks and nbgrader_config.py."""
    from grader.notebooks.nbgrader_export import export as run_export
    if assignment is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", assignment):
        fail(f"--assignment {assignment!r}: use letters, digits, '.', '_' and '-' only.")
    chosen = ([wb.lesson(name.strip()) for name in lessons.split(",") if name.strip()] if lessons
              else [wb.lesson(e.id) for e in wb.roadmap.entries if wb.roadmap.available(e)])
    written = run_export(wb.roadmap, chosen, Path(course), assignment)
    for name, paths in written.items():
        console.print(f"{escape(name)}: {', '.join(escape(p.name) for p in paths)}")
    console.print(f"Wrote the nbgrader course {escape(str(Path(course)))}: next, "
                  f"`cd {escape(str(course))} && nbgrader generate_assignment NAME`.")


@cli.command()
@click.argument("lesson")
@click.pass_obj
def reset(wb, lesson):
    """Restore LESSON's stub (your version is saved in .workbook/backup/)."""
    lesson = wb.lesson(lesson)
    backup = builder.reset(wb.roadmap, lesson)
    wb.progress.update(lesson.id, passed=False, score=None)
    console.print(f"Restored exercises/{lesson.id}/solution.py."
                  + (f" Your version is saved as {backup.relative_to(wb.root)}." if backup else ""))


@cli.command()
@click.argument("submissions", type=click.Path(file_okay=False))
@click.option("--lessons", default=None, help="Lessons to grade, by number or slug, comma-separated "
              "(default: every written lesson).")
@click.option("--out", default="grading", type=click.Path(file_okay=False), show_default=True,
              help="Where to write gradebook.sqlite and grades.csv.")
@click.option("--jobs", default=os.cpu_count() or 1, type=click.IntRange(1, 64), show_default=True,
              help="Warm workers grading in parallel.")
@click.option("--case-seconds", type=click.FloatRange(0.1, 600), default=None,
              help="Time limit per case (default: each lesson's own).")
@click.option("--no-sandbox", is_flag=True, help="Run learner code without bubblewrap (only for "
              "code you trust).")
@click.pass_obj
def grade(wb, submissions, lessons, out, jobs, case_seconds, no_sandbox):
    """Grade a class: SUBMISSIONS holds one folder per learner, with their lesson folders."""
    from grader.classroom.classgrade import grade_class
    chosen = ([wb.lesson(name) for name in lessons.split(",") if name.strip()] if lessons
              else [wb.lesson(e.id) for e in wb.roadmap.entries if wb.roadmap.available(e)])
    err = Console(stderr=True)
    columns = (*bars.Progress.get_default_columns(), bars.MofNCompleteColumn())
    with bars.Progress(*columns, console=err, transient=True) as bar:
        def progress(total):
            task = bar.add_task("Grading", total=total)
            return lambda submission, result: bar.advance(task)
        learners, graded = grade_class(Path(submissions), chosen, Path(out), jobs, not no_sandbox,
                                       case_seconds, progress)
    console.print(f"Graded {len(graded)} submissions from {len(learners)} learners on "
                  f"{len(chosen)} lessons{' without the sandbox' if no_sandbox else ''}: "
                  f"{Path(out) / 'gradebook.sqlite'}, {Path(out) / 'grades.csv'}")


@cli.command("build")
@click.option("--check", "only_check", is_flag=True, help="Only report files that are out of date.")
@click.pass_obj
def build_cmd(wb, only_check):
    """Generate each lesson's stub, README and notebook from its source (never over one you changed)."""
    from grader.notebooks import build as notebooks
    if only_check:
        stale = [f"exercises/{rel}" for rel in builder.drift(wb.roadmap)]
        stale += [f"notebooks/{rel}" for rel in notebooks.drift(wb.roadmap)]
        for rel in stale:
            console.print(f"[red]out of date:[/red] {rel}")
        sys.exit(1 if stale else 0)
    report_ = [(f"exercises/{rel}", action) for rel, action in builder.build(wb.roadmap)]
    report_ += [(f"notebooks/{rel}", action) for rel, action in notebooks.build(wb.roadmap)]
    for rel, action in report_:
        if action != "unchanged":
            console.print(f"{escape(rel)}: {escape(action)}")
    sys.exit(1 if any(action.startswith("skipped") for _, action in report_) else 0)


@cli.command()
@click.argument("lessons", nargs=-1)
@click.pass_obj
def verify(wb, lessons):
    """Prove every lesson sound: references pass, stubs fail, mistakes are caught and named."""
    from grader.lessons.verify import verify as run_verify
    only = {wb.lesson(name).id for name in lessons} if lessons else None
    report_ = run_verify(wb.roadmap, only)
    for lesson_id, problems in report_.items():
        if problems:
            console.print(f"[red]✗ {lesson_id}[/red]")
            for p in problems:
                console.print(f"    {escape(p)}")
        else:
            console.print(f"[green]✓ {lesson_id}[/green]")
    sys.exit(1 if any(report_.values()) else 0)


def main():
    """Run the CLI; a learner sees a clear message, never the grader's own traceback."""
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        e.show()
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt):
        fail("Interrupted; nothing recorded so far was lost.", 130)
    except OSError as e:
        fail(f"{e.strerror or e}: {e.filename}" if e.filename else str(e))
    except (roadmap.UnknownLesson, LessonError, GraderError, ValueError) as e:
        fail(str(e.args[0]) if e.args else str(e))
