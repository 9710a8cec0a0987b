"""What a lesson notebook's kernel runs: the `%%answer` cell magic and the check cell.

`%%answer NN-slug` saves the cell to exercises/NN-slug/solution.py (the one place a learner's code
lives, whether written in the notebook or in the file) and runs it in the notebook. `check(lesson)`
grades that file with the same grader as `make check`, records the result in the learner's
progress, and shows the report as HTML. Warm workers are started on the first check and reused.
"""
import atexit
import io
import os
import re
from pathlib import Path

from rich.console import Console

from grader.files import write_atomic
from grader.learner import backups, report
from grader.learner.commands import make
from grader.lessons import build as builder
from grader.judge.grade import grade_file
from grader.runner.workers import GRADER_HOME, Pool, preload_for

POOLS = {}
LESSONS = {}


def workbook():
    from grader.cli import Workbook
    return Workbook(os.environ.get("WORKBOOK_ROOT") or GRADER_HOME)


def save_answer(wb, lesson, cell):
    """Write the cell to the lesson's exercise file; returns (the code to run, a note or None,
    whether the cell should now show that code).

    A cell that still holds the stub never replaces a file the learner has changed: the file's
    code is run instead, and the cell is offered it. The file a cell replaces is kept as a numbered
    version, as `make reset` keeps one (`make backups` lists them).
    """
    path = wb.exercise(lesson.entry)
    current = path.read_text() if path.is_file() else None
    shown = f"exercises/{lesson.id}/solution.py"
    if current == cell:
        return cell, None, False
    stub = builder.stub_text(lesson)
    if cell == stub and current is not None and wb.started(lesson.entry):
        return current, (f"This cell held the stub, and {shown} holds your code: the file was left "
                         "as it is, its code was run, and this cell now shows it (if your notebook "
                         f"app does not, `%load ../{shown}` brings it in)."), True
    kept = ""
    if current is not None:
        version, new = backups.save(wb.root, lesson.id, current, stub)
        if version is not None:
            n = lesson.entry.number
            kept = (f" Your previous version is kept as {version.path.relative_to(wb.root)}"
                    f"{'' if new else ' (saved before)'}: `{make('backups', n)}` lists them.")
    write_atomic(path, cell)
    return cell, f"Saved to {shown}.{kept}", False


def answer(line, cell):
    """%%answer NN-slug: save this cell as the lesson's solution.py, then run it here."""
    from IPython import get_ipython
    ipython = get_ipython()
    wb = workbook()
    lesson = wb.lesson(line.strip())
    code, note, offer = save_answer(wb, lesson, cell if cell.endswith("\n") else cell + "\n")
    pool_for(lesson)   # its worker imports numpy (and torch) while the learner reads on
    if note:
        print(note)
    if offer:   # Jupyter replaces this cell's text with the learner's code
        ipython.set_next_input(f"%%answer {lesson.id}\n{code.rstrip(chr(10))}", replace=True)
    ipython.run_cell(code)


def pool_for(lesson):
    preload = preload_for([lesson])
    if preload not in POOLS:
        POOLS[preload] = Pool(1, preload=preload)
        atexit.register(POOLS[preload].close)
    return POOLS[preload]


PRE = ('<pre style="font-family:Menlo,Consolas,\'DejaVu Sans Mono\',monospace;font-size:13px;'
       'line-height:1.4;white-space:pre-wrap;word-break:normal;overflow-wrap:normal;'
       'overflow-x:auto;margin:0">{code}</pre>')
CODE = '<code style="background:rgba(127,127,127,0.15);border-radius:3px;padding:0 2px">'
UNBROKEN = '<span style="white-space:nowrap">'
TEXT = re.compile(r"(?<=>)[^<]+|^[^<]+")


def readable(html):
    """The report's HTML (rich's spans and escaped text), made to read as the terminal does: lines
    wrap only between words (Jupyter styles output `pre` to break anywhere), a word holding a digit
    or a hyphen never breaks (`-0.340703`, `time-out`), and `code` in backticks shows as code."""
    def unbroken(text):
        return re.sub(r"\S*[\d-]\S*", lambda w: f"{UNBROKEN}{w.group()}</span>", text)

    def text(m):
        parts = re.split(r"`([^`]+)`", m.group())
        return "".join(f"{CODE}{unbroken(p)}</code>" if i % 2 else unbroken(p)
                       for i, p in enumerate(parts))
    return TEXT.sub(text, html)


def rendered(result, revealed, width=100):
    """The learner's report as (HTML, plain text)."""
    console = Console(record=True, file=io.StringIO(), width=width, color_system="truecolor",
                      highlight=False, soft_wrap=True, force_jupyter=False)
    report.render(console, result, revealed)
    n = result.lesson.entry.number
    if result.passed:
        console.print("\n  [green]Passed.[/green] The Solution walkthrough and Watch out at the end "
                      "of this notebook are yours to open now.")
    else:
        console.print(f"  [dim]In this notebook the hints are folded under Hints below; "
                      f"`{make('hint', n)}` counts them in your progress.[/dim]")
    html = console.export_html(inline_styles=True, clear=False, code_format="{code}")
    return PRE.format(code=readable(html)), console.export_text()


class Report:
    """A check's result as Jupyter shows it: HTML in the notebook, plain text elsewhere."""

    def __init__(self, result, html, text):
        self.result, self.html, self.text = result, html, text

    def _repr_html_(self):
        return self.html

    def __repr__(self):
        return self.text


def loaded(wb, name):
    """The lesson, kept while its source files are unchanged: the reference's answers and the
    mistakes' are computed on the first check only."""
    lesson = wb.lesson(name)
    key = (str(lesson.folder), tuple((p.name, p.stat().st_mtime_ns) for p in
                                     sorted(lesson.folder.glob("*.py")) + [lesson.folder / "lesson.md"]))
    return LESSONS.setdefault(key, lesson)


def check(name):
    """Grade the lesson's exercise file (what the answer cell saved) and show the report."""
    wb = workbook()
    lesson = loaded(wb, name)
    result = grade_file(lesson, wb.exercise(lesson.entry), pool_for(lesson))
    wb.record(lesson, result)
    result.path = Path("exercises", lesson.id, "solution.py")   # as the learner knows it
    return Report(result, *rendered(result, wb.progress.lesson(lesson.id).get("hints", 0)))


def register(ipython):
    ipython.register_magic_function(answer, "cell", "answer")
    ipython.user_ns["check"] = check
