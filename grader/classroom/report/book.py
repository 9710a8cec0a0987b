"""`grader report`: read a class's gradebook (never changing it) and write the HTML class report."""
import sqlite3
import time
from pathlib import Path

from grader.errors import GraderError
from ..exports import AtomicFiles
from ..readonly import open_readonly
from . import data, page


def gradebook_folder(path):
    """The folder holding gradebook.sqlite, given that folder or the gradebook file itself."""
    path = Path(path)
    return path.parent if path.name == "gradebook.sqlite" and not path.is_dir() else path


def load(folder):
    """The ClassReport of the gradebook in `folder`; GraderError when there is none to report."""
    db = open_readonly(folder)
    try:
        report = data.build(db)
    except sqlite3.DatabaseError as exc:
        raise GraderError(f"{Path(folder) / 'gradebook.sqlite'} could not be read ({exc}); it was "
                          "left untouched") from None
    finally:
        db.close()
    if not report.lessons or not report.learners:
        raise GraderError(f"the gradebook in {folder} holds no graded class yet: run `grader grade "
                          f"SUBMISSIONS --out {folder}` first")
    return report


def write(report, folder, out):
    """Write the HTML report of `report` (read from `folder`) to `out`."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    source = str(Path(folder) / "gradebook.sqlite")
    files = AtomicFiles()           # the page is replaced whole, or not at all
    try:
        files.write(out, page.page(report, source, time.strftime("%Y-%m-%d %H:%M %Z")))
        files.commit()
    finally:
        files.discard()
