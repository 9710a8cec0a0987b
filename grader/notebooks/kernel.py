"""What a lesson notebook's kernel runs: the `%%answer` cell magic and the check cell.

`%%answer NN-slug` saves the cell to exercises/NN-slug/solution.py (the one place a learner's code
lives, whether written in the notebook or in the file) and runs it in the notebook. `check(lesson)`
grades that file with the same grader as `make check`, records the result in the learner's
progress, and shows the report as HTML. Warm workers are started on the first check and reused.
"""
import atexit
import io
import os
from pathlib import Path

from rich.console import Console

from grader.learner import report
from grader.files import write_atomic
from grader.lessons import regions
from grader.judge.grade import grade_file
from grader.runner.workers import GRADER_HOME, Pool, preload_for

POOLS = {}
LESSONS = {}


def workbook():
    from grader.cli import Workbook
    return Workbook(os.environ.get("WORKBOOK_ROOT") or GRADER_HOME)


def save_answer(wb, lesson, cell):
    """Write the cell to the lesson's exercise file; returns (the code to run, a note or None).

    A cell that still holds the stub never replaces a file the learner has changed: the file's
    code is run instead, so a learner who works in the file loses nothing by running the notebook.
    """
    path = wb.exercise(lesson.entry)
    current = path.read_text() if path.is_file() else None
    shown = f"exercises/{lesson.id}/solution.py"
    if current == cell:
        return cell, None
    if cell == regions.stub(lesson.reference_source) and current is not None and wb.started(lesson.entry):
        return current, (f"This cell still holds the stub, and {shown} holds your work: the file "
                         "was left as it is and its code was run. Paste it here to work in the "
                         "notebook.")
    if current is not None:
        backup = wb.root / ".workbook" / "backup" / f"{lesson.id}.py"
        write_atomic(backup, current)
    write_atomic(path, cell)
    return cell, f"Saved to {shown}."


def answer(line, cell):
    """%%answer NN-slug: save this cell as the lesson's solution.py, then run it here."""
    from IPython import get_ipython
    wb = workbook()
    lesson = wb.lesson(line.strip())
    code, note = save_answer(wb, lesson, cell if cell.endswith("\n") else cell + "\n")
    pool_for(lesson)   # its worker imports numpy (and torch) while the learner reads on
    if note:
        print(note)
    get_ipython().run_cell(code)


def pool_for(lesson):
    preload = preload_for([lesson])
    if preload not in POOLS:
        POOLS[preload] = Pool(1, preload=preload)
        atexit.register(POOLS[preload].close)
    return POOLS[preload]


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
                      f"`make hint L={n:02d}` counts them in your progress.[/dim]")
    html = console.export_html(inline_styles=True, clear=False, code_format=(
        '<pre style="font-family:Menlo,Consolas,\'DejaVu Sans Mono\',monospace;font-size:13px;'
        'line-height:1.4;white-space:pre-wrap;margin:0">{code}</pre>'))
    return html, console.export_text()


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
    result.path = Path("exercises", lesson.id, "solution.py")   # as the learner knows it
    wb.progress.update(lesson.id, passed=result.passed, score=round(result.score, 6))
    return Report(result, *rendered(result, wb.progress.lesson(lesson.id).get("hints", 0)))


def register(ipython):
    ipython.register_magic_function(answer, "cell", "answer")
    ipython.user_ns["check"] = check
