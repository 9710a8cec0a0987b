"""The `grader` command: the learner's check, hints and roadmap, and the author's build and verify."""
import os
import re
import signal
import sys
from pathlib import Path

import click
from rich.console import Console
from rich import progress as bars
from rich.markdown import Markdown
from rich.markup import escape

from grader import __version__
from grader.classroom.escape import plain, terminal
from grader.errors import GraderError
from grader.learner import backups, hints, walkthrough
from grader.learner.commands import GRADER
from grader.learner import check as learner_check
from grader.learner import status as learner_status
from grader.learner import watch as learner_watch
from grader.learner.workbook import Workbook
from grader.lessons import build as builder
from grader.lessons import roadmap
from grader.lessons.lesson import LessonError
from grader.runner.workers import GRADER_HOME

console = Console(highlight=False, soft_wrap=True)


def fail(message, code=2):
    console.print(f"[red]{terminal(message)}[/red]")
    sys.exit(code)


@click.group()
@click.version_option(__version__, prog_name="grader", message="%(prog)s %(version)s")
@click.option("--root", type=click.Path(file_okay=False), default=None, hidden=True,
              help="The workbook's folder (default: the one holding this grader).")
@click.pass_context
def cli(ctx, root):
    """The Transformer Workbook: check your lessons, get hints, follow the roadmap."""
    ctx.obj = Workbook(root or os.environ.get("WORKBOOK_ROOT") or GRADER_HOME)
    if ctx.obj.progress.notice:
        notice = escape(ctx.obj.progress.notice)
        Console(stderr=True, highlight=False).print(f"[yellow]{notice}[/yellow]")


@cli.command()
@click.pass_obj
def status(wb):
    """The roadmap: every lesson's state and the hints you used."""
    learner_status.print_roadmap(console, wb)
    learner_status.print_next(console, wb)


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
    if file and len(learner_check.names(lessons)) != 1:
        fail(f"--file grades one lesson: name it, as in `{GRADER} check 01 --file mine.py`.")
    sys.exit(learner_check.run(console, wb, lessons, file, as_json, sandbox))


@cli.command()
@click.pass_obj
def stop(wb):
    """End this workbook's warm check server (the next check starts it again)."""
    from grader.checkserver.client import stop as stop_server
    console.print("Stopped the warm check server." if stop_server(wb.root)
                  else "No warm check server is running for this workbook.")


@cli.command()
@click.argument("lesson", required=False)
@click.option("--interval", default=0.3, hidden=True, type=float)
@click.pass_obj
def watch(wb, lesson, interval):
    """Re-check LESSON (default: your next lesson) every time you save it; Ctrl-C stops."""
    entry = wb.lesson(lesson).entry if lesson else wb.next_lesson()
    if entry is None:
        fail("Every lesson written so far is passed; name one to watch it anyway.")
    learner_watch.watch(console, wb, wb.lesson(entry.id), interval)


@cli.command()
@click.argument("lesson")
@click.option("--seen", is_flag=True, help="Show the hints you already revealed, and no more.")
@click.pass_obj
def hint(wb, lesson, seen):
    """Reveal one more hint tier for LESSON (three in all)."""
    hints.reveal(console, wb, wb.lesson(lesson), seen)


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
    """Export the lessons for other tools: an nbgrader course, a Gradescope autograder bundle."""


@export.command("nbgrader")
@click.argument("course", type=click.Path(file_okay=False))
@click.option("--lessons", default=None, help="Lessons to export, by number or slug, "
              "comma-separated (default: every written lesson).")
@click.option("--assignment", default=None, help="Put every exported lesson in this one "
              "assignment (default: one assignment per chapter).")
@click.option("--given-code", type=click.Choice(["keep", "later"]), default="keep",
              show_default=True, help="A lesson whose stub gives the code of an earlier lesson of "
              "its assignment: keep it there (with a warning), or put it in an assignment of its "
              "own, to release once that earlier lesson is due.")
@click.option("--course", "course_file", default=None, type=click.Path(dir_okay=False),
              help="A course file (course.toml) giving the lessons' points, scoring rules, due "
              "dates and late policies.")
@click.pass_obj
def export_nbgrader(wb, course, lessons, assignment, given_code, course_file):
    """Write an nbgrader course to COURSE: source notebooks and nbgrader_config.py."""
    from grader.notebooks.nbgrader_export import export as run_export
    if assignment is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", assignment):
        fail(f"--assignment {assignment!r}: use letters, digits, '.', '_' and '-' only.")
    chosen = chosen_lessons(wb, lessons)
    rules, dates = course_for(wb, course_file, chosen)
    written, giveaways = run_export(wb.roadmap, chosen, Path(course), assignment, given=given_code,
                                    rules=rules, dates=dates)
    for name, paths in written.items():
        console.print(f"{escape(name)}: {', '.join(escape(p.name) for p in paths)}")
    for g in giveaways:
        console.print(f"[yellow]Warning:[/yellow] {escape(str(g))}." if not g.moved
                      else f"Note: {escape(str(g))}.")
    console.print(f"Wrote the nbgrader course {escape(str(Path(course)))}: next, "
                  f"`cd {escape(str(course))} && nbgrader generate_assignment NAME`.")


@cli.command()
@click.argument("lesson")
@click.pass_obj
def reset(wb, lesson):
    """Restore LESSON's stub; your version is kept as a numbered backup in .workbook/backup/."""
    console.print(backups.reset(wb, wb.lesson(lesson)))


@cli.command("backups")
@click.argument("lesson")
@click.pass_obj
def backups_cmd(wb, lesson):
    """List the saved versions of LESSON's file (kept by reset and restore)."""
    backups.listing(console, wb, wb.lesson(lesson))


@cli.command()
@click.argument("lesson")
@click.argument("version", required=False)
@click.pass_obj
def restore(wb, lesson, version):
    """Bring back saved VERSION of LESSON's file (default: the latest), saving the current one."""
    lesson = wb.lesson(lesson)
    number = None if version is None else backups.version_number(version, lesson.id)
    console.print(backups.restore(wb, lesson, number))


def course_for(wb, course_file, chosen):
    """({lesson id: points.Rule}, the due dates and late policies as course.portable carries
    them) from the course file, if one is named."""
    if not course_file:
        return {}, {}
    from grader.classroom.course import config as course_config, portable
    course = course_config.load(course_file, wb.roadmap)
    course.check(chosen)
    return ({lesson.id: course.rule(lesson.id) for lesson in chosen},
            portable.dates(course, chosen))


def chosen_lessons(wb, lessons):
    return ([wb.lesson(name.strip()) for name in lessons.split(",") if name.strip()] if lessons
            else [wb.lesson(e.id) for e in wb.roadmap.entries if wb.roadmap.available(e)])


@cli.command()
@click.argument("submissions", type=click.Path(file_okay=False))
@click.option("--lessons", default=None, help="Lessons to grade, by number or slug, comma-separated "
              "(default: every written lesson).")
@click.option("--out", default="grading", type=click.Path(file_okay=False), show_default=True,
              help="Where to write gradebook.sqlite, grades.csv, feedback/ and gradescope/.")
@click.option("--jobs", default=os.cpu_count() or 1, type=click.IntRange(1, 64), show_default=True,
              help="Warm workers grading in parallel.")
@click.option("--case-seconds", type=click.FloatRange(0.1, 600), default=None,
              help="Time limit per case (default: each lesson's own).")
@click.option("--regrade", is_flag=True, help="Grade every submission again, even unchanged ones.")
@click.option("--learner", default=None, help="SUBMISSIONS is this one learner's folder.")
@click.option("--hidden-cases", type=click.Choice(["after_published", "hidden"]),
              default="after_published", show_default=True,
              help="When Gradescope shows hidden cases' verdicts to learners.")
@click.option("--no-sandbox", is_flag=True, help="Run learner code without bubblewrap (only for "
              "code you trust).")
@click.option("--executor", default="local", show_default=True, metavar="local|dask://HOST:PORT",
              help="Where the jobs run: this machine's warm workers, or a Dask cluster's workers "
              "(each with this workbook, its .venv and bubblewrap; --jobs is then theirs).")
@click.option("--drop", is_flag=True, help="Leave learners whose folder is gone out of the "
              "exports (default: marked withdrawn in grades.csv); the gradebook keeps their results.")
@click.option("--roster", default=None, type=click.Path(dir_okay=False),
              help="The course's roster (CSV: id, name, email, section, optional sis_id); kept in "
              "the gradebook for later runs.")
@click.option("--course", "course_file", default=None, type=click.Path(dir_okay=False),
              help="The course file: each lesson's points, scoring rule and due date (default: "
              "course.toml beside the class folder, if there is one).")
@click.option("--extensions", "extensions_file", default=None, type=click.Path(dir_okay=False),
              help="Extensions (CSV: learner, lesson or *, due: a date or a number of days; "
              "default: extensions.csv beside the class folder, if there is one).")
@click.option("--preview", is_flag=True, help="Grade into a scratch copy of the gradebook and list "
              "whose points would change and why; nothing in --out is written.")
@click.pass_obj
def grade(wb, submissions, lessons, out, jobs, case_seconds, regrade, learner, hidden_cases,
          no_sandbox, executor, drop, roster, course_file, extensions_file, preview):
    """Grade a class: SUBMISSIONS holds one folder per learner, with their lesson folders. Only what
    is new or changed is graded; the exports are rewritten from the gradebook every run."""
    from grader.classroom.classgrade import grade_class
    from grader.classroom.executors import opened
    from grader.classroom.summary import summary
    from grader.classroom.course import (config as course_config, dates as course_dates,
                                         extensions as course_extensions, roster as course_roster)
    members = course_roster.read(roster) if roster else None
    chosen = chosen_lessons(wb, lessons)
    course = course_config.read(submissions, course_file, wb.roadmap, chosen)
    found = course_extensions.find(submissions, extensions_file)
    extensions = found and course_extensions.read(found, wb.roadmap,
                                                  course.tz if course else course_dates.UTC)
    known = [e.id for e in wb.roadmap.entries if wb.roadmap.available(e)]
    err = Console(stderr=True)
    columns = (bars.TextColumn("{task.description}"), bars.BarColumn(), bars.MofNCompleteColumn(),
               bars.TimeElapsedColumn())   # no time-remaining guess: time-outs make it wrong
    with opened(executor) as runs_jobs, bars.Progress(*columns, console=err, transient=True) as bar:
        def progress(total):
            task = bar.add_task("Grading", total=total)
            return lambda job: bar.advance(task)
        grading = dict(jobs=jobs, sandboxed=not no_sandbox, case_seconds=case_seconds,
                       progress=progress, regrade=regrade, known=known, learner=learner,
                       visibility=hidden_cases, executor=runs_jobs, drop=drop, roster=members,
                       course=course, extensions=extensions)
        if preview:
            from grader.classroom.preview import preview_class
            done, changes = preview_class(Path(submissions), chosen, Path(out), **grading)
        else:
            done = grade_class(Path(submissions), chosen, Path(out), **grading)
    if preview:
        print_preview(done, changes, Path(out))
    lines, code = summary(done, chosen, Path(out), not no_sandbox, drop)
    for line in lines:
        console.print(terminal(line))
    if not done.submissions:
        fail(f"No submission was found in {submissions} for lessons "
             f"{', '.join(l.id for l in chosen)}: see the files listed above.")
    sys.exit(code)


def print_preview(done, changes, out):
    """What `grader grade --preview` found; exits."""
    for change in changes:
        console.print(terminal(change.line()))
    graded, kept = len(done.graded), sum(c.scores is not None for c in changes)
    console.print(terminal(f"Preview: {graded} submissions graded in a scratch copy; "
                           f"{len(changes) - kept} learner x lesson points would change"
                           + (f", {kept} would be kept at their published points (never_lower)"
                              if kept else "") + f". Nothing in {out} was written."))
    if not done.submissions:
        fail("No submission was found for the lessons chosen.")
    sys.exit(1 if done.faults else 0)


@cli.command()
@click.option("--fallback", is_flag=True, help="Accept what the Gradescope bundle falls back to "
              "where bubblewrap cannot start: jobs as an unprivileged user (needs root).")
def doctor(fallback):
    """Whether class grading's sandbox works here, and how each job's memory is bounded."""
    from grader.runner import doctor as runner_doctor
    lines, code = runner_doctor.report(fallback=fallback)
    for line in lines:
        console.print(escape(line))
    sys.exit(code)


@cli.command()
@click.argument("learner")
@click.option("--out", default="grading", type=click.Path(file_okay=False), show_default=True,
              help="The folder `grader grade` wrote its gradebook into.")
def feedback(learner, out):
    """Print LEARNER's feedback from the class gradebook, as their feedback page shows it."""
    from grader.classroom.readonly import learner_feedback
    console.print(Markdown(plain(learner_feedback(Path(out), learner))))


RECORDED = ("grades.csv, the feedback pages, Gradescope's results and the Canvas and Moodle files "
            "(lms/) are rewritten from the gradebook (nothing is graded again).")


@cli.command()
@click.argument("learner")
@click.argument("lesson")
@click.option("--score", required=True, type=float, help="The lesson's points for this learner "
              "(from 0 to what the lesson is worth).")
@click.option("--comment", default="", help="Why, for the learner's feedback.")
@click.option("--out", default="grading", type=click.Path(file_okay=False), show_default=True,
              help="The folder `grader grade` wrote its gradebook into.")
@click.pass_obj
def override(wb, learner, lesson, score, comment, out):
    """Set LEARNER's points on LESSON, whatever later runs grade (kept with who and when)."""
    from grader.classroom.course import notes
    lesson_id, added = notes.record(Path(out), wb.roadmap, learner, lesson, notes.add_override,
                                    score, comment)
    console.print(terminal((f"Recorded: {learner} x {lesson_id} overridden to {score:g} points. "
                            if added else f"{learner} x {lesson_id} has this override already. ")
                           + RECORDED))


@cli.command()
@click.argument("words", nargs=-1, metavar="LEARNER LESSON TEXT | --mistake LESSON:ID TEXT")
@click.option("--mistake", default=None, metavar="LESSON:ID", help="Comment for everyone whose "
              "current result on LESSON carries this known mistake or symptom (its id as the "
              "gradebook stores it, e.g. 01:no-max-shift or 01:symptom:NAME), or falls in this "
              "cluster of unexplained wrong answers (01:cluster:ID, as `grader cluster` lists).")
@click.option("--points", type=float, default=None, help="With --mistake: points added to (or, "
              "negative, taken from) the lesson's for each of them.")
@click.option("--out", default="grading", type=click.Path(file_okay=False), show_default=True,
              help="The folder `grader grade` wrote its gradebook into.")
@click.pass_obj
def comment(wb, words, mistake, points, out):
    """Add a comment on LEARNER's LESSON, shown on their feedback (kept with who and when); with
    --mistake, on everyone whose current result carries that mistake, now and on later runs."""
    from grader.classroom.course import mistake_notes, notes
    if mistake is None:
        if points is not None:
            fail("--points goes with --mistake: use `grader override` for one learner's points.")
        if len(words) != 3:
            fail("grader comment takes LEARNER LESSON TEXT (or --mistake LESSON:ID TEXT).")
        learner, lesson, text = words
        lesson_id, added = notes.record(Path(out), wb.roadmap, learner, lesson, notes.add_comment,
                                        text)
        console.print(terminal((f"Recorded a comment on {learner} x {lesson_id}. " if added else
                                f"{learner} x {lesson_id} has this comment already. ") + RECORDED))
        return
    if len(words) != 1:
        fail("grader comment --mistake LESSON:ID takes one TEXT (quote it), and no learner.")
    lesson_id, mistake_id, added, count = mistake_notes.record(Path(out), wb, mistake, words[0],
                                                               points)
    console.print(terminal((f"Recorded a note on {mistake_id} of {lesson_id}" if added else
                            f"{mistake_id} of {lesson_id} has this note already")
                           + (": 1 learner's current result carries it. " if count == 1 else
                              f": {count} learners' current results carry it. ") + RECORDED))


@cli.command()
@click.argument("lesson")
@click.option("--promote", "key", default=None, metavar="K", help="Write cluster K (its number in "
              "the list, or its id) into the lesson's mistakes.py as a new mistake, for its author "
              "to review.")
@click.option("--name", default=None, help="With --promote: the new mistake's id.")
@click.option("--message", default=None, help="With --promote: what a learner who made it reads "
              "(left out: written in later by the author).")
@click.option("--out", default="grading", type=click.Path(file_okay=False), show_default=True,
              help="The folder `grader grade` wrote its gradebook into.")
@click.pass_obj
def cluster(wb, lesson, key, name, message, out):
    """List LESSON's clusters of unexplained wrong answers (the same outputs on every case); with
    --promote, turn one into an entry of the lesson's mistakes.py."""
    from grader.classroom.clusters import listing, promote
    if key is None:
        if name is not None or message is not None:
            fail("--name and --message go with --promote K.")
        graded, _, found, alone = listing.load(Path(out), wb, lesson)
        listing.print_clusters(console, graded, found, alone)
        return
    if name is None:
        fail("--promote K needs --name NAME: the new mistake's id, e.g. uniform-weights.")
    done = promote.promote(Path(out), wb, lesson, key, name, message)
    c, made = done.cluster, done.entry
    console.print(terminal(
        f"Wrote mistake {name!r} into {done.path}, from {c.name} ({done.learner}'s file): "
        f"{', '.join(made.functions)}" + (f", with {'; '.join(made.imports)}" if made.imports else "")
        + "." + (f" Left out: {'; '.join(made.left_out)}." if made.left_out else "")
        + (f" The cluster's note now goes with {name!r} too." if done.note else "")))
    console.print(terminal(
        "It is a learner's code, and mistakes run inside the grader: read it before anything else. "
        + ("Then write in its message and run " if message is None else "Then run ")
        + f"`make verify L={done.lesson.entry.number:02d}`; the next `grader grade` regrades the "
        "lesson with it."))


@cli.command()
@click.argument("out", required=False, type=click.Path(dir_okay=False))
@click.option("--gradebook", "folder", default="grading", type=click.Path(), show_default=True,
              help="The folder `grader grade` wrote its gradebook into (its --out), or the "
              "gradebook.sqlite file itself.")
@click.option("--no-html", is_flag=True, help="Only print the summary; write no HTML page.")
@click.pass_obj
def report(wb, out, folder, no_html):
    """What the class got wrong, from its gradebook: a summary here, and one self-contained HTML page
    at OUT (default: report.html beside the gradebook) with figures, mistakes and problems."""
    from grader.classroom.report import book as class_report
    from grader.classroom.report.text import print_report
    if out and no_html:
        fail("--no-html writes no page: leave out OUT, or drop --no-html.")
    folder = class_report.gradebook_folder(folder)
    data = class_report.load(folder)
    print_report(console, data)
    if not no_html:
        path = Path(out) if out else folder / "report.html"
        class_report.write(data, folder, path)
        console.print(f"Wrote the class report: {terminal(str(path))}")
        evidence = class_report.write_collusion(folder, path.parent, wb)
        console.print(f"Wrote the collusion evidence, for your eyes only: {terminal(str(evidence))}")


@cli.command()
@click.argument("lessons", nargs=-1, required=True)
@click.option("--out", default="grading", type=click.Path(file_okay=False), show_default=True,
              help="The folder `grader grade` wrote its gradebook into.")
@click.pass_obj
def release(wb, lessons, out):
    """Let LESSONS' feedback leave: Gradescope's results and the Canvas and Moodle files (with
    `release = "manual"` in the course file, nothing leaves before)."""
    from grader.classroom.course import release as releases
    ids, held = releases.record(Path(out), wb.roadmap, lessons)
    console.print(terminal(f"Released: {', '.join(ids)}. "
                           + (f"Still held: {', '.join(held)}. " if held else "Nothing is held. ")
                           + RECORDED))


def lms_export(system, out_path, folder):
    """Write the LMS grade file for the gradebook in `folder` to `out_path`."""
    from grader.classroom import view
    from grader.classroom.course import lms
    from grader.classroom.readonly import open_readonly
    from grader.classroom.report.book import gradebook_folder
    from grader.files import write_atomic
    db = open_readonly(gradebook_folder(folder))
    try:
        class_view = view.load(db).present()
    finally:
        db.close()
    write_atomic(Path(out_path), lms.export(system, class_view))
    held = [l.id for l in class_view.lessons if not l.released]
    console.print(terminal(f"Wrote {out_path}: {len(class_view.learners)} learners x "
                           f"{len(class_view.lessons) - len(held)} lessons, for "
                           f"{system.capitalize()}'s grade import (see the instructors' page for "
                           "the steps)." + (f" Not in it, held until `grader release`: "
                                            f"{', '.join(held)}." if held else "")))


GRADEBOOK = click.option("--gradebook", "folder", default="grading", type=click.Path(),
                         show_default=True, help="The folder `grader grade` wrote its gradebook "
                         "into (its --out).")


@export.command("canvas")
@click.argument("out_path", metavar="OUT.csv", type=click.Path(dir_okay=False))
@GRADEBOOK
def export_canvas(out_path, folder):
    """A Canvas gradebook import file: a new assignment per lesson, with its points possible."""
    lms_export("canvas", out_path, folder)


@export.command("moodle")
@click.argument("out_path", metavar="OUT.csv", type=click.Path(dir_okay=False))
@GRADEBOOK
def export_moodle(out_path, folder):
    """A Moodle grade import file: user fields to map, a grade and a feedback column per lesson."""
    lms_export("moodle", out_path, folder)


@export.command("gradescope")
@click.argument("zip_path", metavar="OUT.zip", type=click.Path(dir_okay=False))
@click.option("--lessons", default=None, help="Lessons the autograder grades, comma-separated "
              "(default: every written lesson).")
@click.option("--hidden-cases", type=click.Choice(["after_published", "hidden"]),
              default="after_published", show_default=True,
              help="When Gradescope shows hidden cases' verdicts to learners.")
@click.option("--course", "course_file", default=None, type=click.Path(dir_okay=False),
              help="A course file (course.toml) giving the lessons' points, scoring rules, due "
              "dates and late policies.")
@click.pass_obj
def export_gradescope(wb, zip_path, lessons, hidden_cases, course_file):
    """Build a Gradescope autograder bundle (setup.sh, run_autograder, the grader and lessons)."""
    from grader.classroom.bundle import build_bundle
    chosen = chosen_lessons(wb, lessons)
    build_bundle(wb.root, chosen, Path(zip_path), hidden_cases, *course_for(wb, course_file, chosen))
    console.print(f"Wrote {zip_path}: a Gradescope autograder for lessons "
                  f"{', '.join(l.id for l in chosen)}; upload it as the assignment's autograder.")


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


JOBS = click.option("--jobs", default=os.cpu_count() or 1, type=click.IntRange(1, 64),
                    show_default=True, help="Warm workers grading mutants in parallel.")


@cli.command()
@click.argument("lessons", nargs=-1)
@click.option("--corpus", is_flag=True,
              help="Instead, measure feedback on the learner answers in tests/learners/NN/.")
@click.option("--no-mutants", is_flag=True, help="Skip the mutation gate (`grader mutate`).")
@JOBS
@click.pass_obj
def verify(wb, lessons, corpus, no_mutants, jobs):
    """Prove every lesson sound: references pass, stubs fail, mistakes are caught and named,
    promises are held, no mutant of the reference survives the cases."""
    from grader.lessons.verify import verify as run_verify
    only = {wb.lesson(name).id for name in lessons} if lessons else None
    if corpus:
        print_corpus(wb, only)
        return
    report_, tallies = run_verify(wb.roadmap, only, jobs, not no_mutants)
    if tallies:
        print_mutants(tallies, show=False)
    for lesson_id, problems in report_.items():
        if problems:
            console.print(f"[red]✗ {lesson_id}[/red]")
            for p in problems:
                console.print(f"    {escape(p)}")
        else:
            console.print(f"[green]✓ {lesson_id}[/green]")
    sys.exit(1 if any(report_.values()) else 0)


@cli.command()
@click.argument("lessons", nargs=-1)
@click.option("--show", is_flag=True, help="List the surviving, bare and equivalent mutants.")
@JOBS
@click.pass_obj
def mutate(wb, lessons, show, jobs):
    """Grade LESSONS' mutants (default: every lesson): learner-like slips in each reference's
    solution regions, each graded as a learner's file; exits 1 if one survives the cases."""
    from grader.lessons import build as lessons_build
    from grader.lessons.mutation import measure
    only = {wb.lesson(name).id for name in lessons} if lessons else None
    chosen = [l for l in lessons_build.lessons(wb.roadmap) if only is None or l.id in only]
    tallies = measure(chosen, jobs)
    print_mutants(tallies, show)
    sys.exit(1 if any(t.count("surviving") for t in tallies) else 0)


def print_mutants(tallies, show):
    """The mutation table: per lesson and in total; with `show`, the mutants authors should read."""
    from rich.table import Table
    from grader.lessons.mutation import CAP
    table = Table(caption="mut: mutants graded; equiv: equivalent on fresh draws (not counted); "
                  "kill: failed by a case, then diagnosed by a known mistake or a symptom (sym), or "
                  "left bare; surv: told apart by a fresh draw only; kill%: of the mutants not "
                  "equivalent; s: seconds")
    table.add_column("lesson", no_wrap=True)
    for name in ("mut", "equiv", "kill", "known", "sym", "bare", "surv", "kill%", "s"):
        table.add_column(name, justify="right")
    rows = [(t.lesson, t.graded, t.count("equivalent"), t.count("killed"),
             t.count("killed", "known"), t.count("killed", "symptom"), t.count("killed", None),
             t.count("surviving"), t.counted, t.seconds) for t in tallies]
    for row in rows + ([("all", *map(sum, list(zip(*rows))[1:]))] if len(rows) > 1 else []):
        *counts, counted, seconds = row
        table.add_row(*map(str, counts), f"{row[3] / counted:.0%}" if counted else "-",
                      f"{seconds:.0f}")
    console.print(table)
    capped = [f"{t.lesson} ({t.graded} of {t.generated})" for t in tallies if t.generated > t.graded]
    if capped:
        console.print(f"At most {CAP} mutants per lesson, every kind of slip in turn: "
                      + ", ".join(capped))
    for t in tallies:
        listed = [("surviving", f) for f in t.listed("surviving")]
        if show:
            listed += [("bare", f) for f in t.listed("killed", None)]
            listed += [("equivalent", f) for f in t.listed("equivalent")]
        for kind, f in listed:
            why = f": {f.why}" if f.why else ""
            console.print(f"  {t.lesson} {kind}: {escape(f.mutant.label)}{escape(why)}")


def print_corpus(wb, only):
    """The corpus measure as a table: per lesson and in total; exits 1 on a surprise."""
    from rich.table import Table
    from grader.lessons.corpus import measure
    tallies = measure(wb.roadmap, wb.root / "tests" / "learners", only)
    table = Table("lesson", "right passed", "wrong failed", "known mistake", "symptom",
                  "unexplained", "explained")
    columns = ("right_passed", "right", "wrong_failed", "wrong", "known", "symptom")
    total = dict.fromkeys(columns, 0)
    for t in tallies:
        for c in columns:
            total[c] += getattr(t, c)
        table.add_row(t.lesson, f"{t.right_passed}/{t.right}", f"{t.wrong_failed}/{t.wrong}",
                      str(t.known), str(t.symptom), str(len(t.unexplained)),
                      f"{t.explained / max(t.wrong_failed, 1):.0%}")
    explained = total["known"] + total["symptom"]
    table.add_row("all", f"{total['right_passed']}/{total['right']}",
                  f"{total['wrong_failed']}/{total['wrong']}", str(total["known"]),
                  str(total["symptom"]), str(total["wrong_failed"] - explained),
                  f"{explained / max(total['wrong_failed'], 1):.0%}")
    console.print(table)
    for t in tallies:
        for line in t.surprises + [f"{name}: no explanation" for name in t.unexplained]:
            console.print(f"  {t.lesson}: {escape(line)}")
    sys.exit(1 if any(t.surprises for t in tallies) else 0)


INTERRUPTED = {"grade": "Interrupted; nothing recorded so far was lost.",
               "check": "Interrupted; the lessons checked so far are recorded."}


def own_signals():
    """Ctrl-C interrupts the grader and SIGTERM ends it, whatever it inherited: a command started in
    the background (`make test &`) starts with SIGINT ignored, and so would every process it starts.
    (A handled signal is reset to its default in the programs the grader runs; an ignored one is not.)"""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main(prog_name=None):
    """Run the CLI; a learner sees a clear message, never the grader's own traceback."""
    own_signals()
    try:
        cli(standalone_mode=False, prog_name=prog_name)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        e.show()
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt):
        command = next((a for a in sys.argv[1:] if a in cli.commands), None)
        fail(INTERRUPTED.get(command, "Interrupted."), 130)
    except OSError as e:
        fail(f"{e.strerror or e}: {e.filename}" if e.filename else str(e))
    except (roadmap.UnknownLesson, LessonError, GraderError, ValueError) as e:
        fail(str(e.args[0]) if e.args else str(e))
