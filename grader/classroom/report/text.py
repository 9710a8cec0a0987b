"""The class report in the terminal: rich tables of the same numbers the HTML report shows. Every
string from the gradebook goes through escape.terminal."""
from rich import box
from rich.table import Column, Table

from grader.display import plural
from ..escape import terminal

TOP = 10          # the most common mistakes listed
SHORT = {"timeout": "time-out", "crash": "crash", "error": "not gradable", "rule": "rule broken",
         "fault": "grader fault"}          # stubs have a column of their own


def percent(x):
    return "—" if x is None else f"{x:.0%}"


def problems_text(lesson):
    """'1 time-out, 2 crash': how many learners had each problem on the lesson."""
    counts = [(len({p.learner for p in lesson.problems_of(k)}), SHORT[k]) for k in SHORT]
    return ", ".join(f"{n} {words}" for n, words in counts if n)


def lessons_table(report):
    table = Table("lesson", "in", Column("passed", no_wrap=True), "stub", "none", "problems",
                  "top mistake (learners)", title="Lessons at a glance (in: handed in; stub: the "
                  "stub handed in untouched; none: nothing submitted)", title_justify="left",
                  box=box.SIMPLE_HEAD)
    for l in report.lessons:
        top = l.mistakes[0] if l.mistakes else None
        table.add_row(f"{l.number:02d}", str(l.submitted), f"{len(l.passed)} ({percent(l.pass_rate)})",
                      str(len(l.stubs) or ""), str(len(l.missing) or ""), problems_text(l),
                      f"{terminal(top.name)} ({len(top.learners)})" if top else "")
    return table


def mistakes_table(report):
    found = sorted(((m, l) for l in report.lessons for m in l.mistakes),
                   key=lambda t: (-len(t[0].learners), t[1].number, t[0].id))[:TOP]
    table = Table("lesson", Column("diagnosis", no_wrap=True), "kind", "learners", "who", title="Most common mistakes",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for m, l in found:
        table.add_row(f"{l.number:02d}", terminal(m.name), "likely cause" if m.symptom else "known",
                      str(len(m.learners)), terminal(", ".join(m.learners)))
    return table if found else None


def print_report(console, report):
    console.print(lessons_table(report))
    mistakes = mistakes_table(report)
    if mistakes is not None:
        console.print(mistakes)
    if report.nothing:
        console.print(f"Submitted nothing at all: {terminal(', '.join(report.nothing))}")
    if report.ungradable:
        console.print("Submitted nothing that could be graded: " + terminal("; ".join(
            f"{l} ({', '.join(path for path, _ in files)})"
            for l, files in report.ungradable.items())))
    if report.only_stubs:
        console.print(f"Handed in only untouched stubs: {terminal(', '.join(report.only_stubs))}")
    for l in report.lessons:
        some = [learner for learner in l.missing
                if learner not in report.nothing and learner not in report.ungradable]
        if some:
            console.print(f"Nothing for {terminal(l.id)}: {terminal(', '.join(some))}")
    for l in report.lessons:
        if l.clusters:
            console.print(f"Unexplained wrong answers of {terminal(l.id)}, grouped (`grader cluster "
                          f"{l.number:02d}`): " + ", ".join(f"{c.name} ({len(c.learners)})"
                                                           for c in l.clusters))
    if report.ungraded:
        console.print(f"Not graded: {plural(len(report.ungraded), 'file')} handed in (the HTML "
                      "report lists them, with the reasons).")
    if report.withdrawn:
        console.print(f"Left out, their folder being gone: {terminal(', '.join(report.withdrawn))}")
    for source, who in report.handed_in_from.items():
        console.print(f"Hand-in time from {source}: {terminal(', '.join(who))}")
    if report.off_roster:
        console.print(f"Graded, but not on the roster: {terminal(', '.join(report.off_roster))}")
    console.print(f"{plural(len(report.learners), 'learner')}, "
                  f"{plural(report.lesson_count, 'lesson')}.")
