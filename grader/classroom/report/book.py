"""`grader report`: read a class's gradebook (never changing it) and write the HTML class report."""
import sqlite3
import time
from pathlib import Path

from grader.errors import GraderError
from grader.lessons.lesson import LessonError
from grader.lessons.roadmap import UnknownLesson
from ..collusion import page as collusion_page
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


def write_collusion(folder, target, workbook):
    """Write target/collusion.html from the gradebook in `folder` (never changing it); the
    lessons' stubs and references are `workbook`'s. Returns the page's path."""
    db = open_readonly(folder)
    try:
        lessons = []
        for (lesson_id,) in db.execute("SELECT id FROM lessons"):
            try:
                lessons.append(workbook.lesson(lesson_id))
            except (UnknownLesson, LessonError, OSError):
                pass            # a lesson this workbook lacks: its files are compared as they are
        return collusion_page.write(db, target, lessons)[0]
    finally:
        db.close()
