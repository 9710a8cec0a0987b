"""Extensions (extensions.csv beside the class folder, or --extensions): a learner's new due date
for one lesson or for every lesson (`*`), as a date or as a number of days added to the lesson's
own due date.

    learner,lesson,due
    ada,01,2026-03-08
    ben,*,3
"""
import datetime as dt
import math
from dataclasses import dataclass
from pathlib import Path

from grader.lessons.roadmap import UnknownLesson
from . import dates
from .table import CourseError, read_rows

FILE = "extensions.csv"
COLUMNS = {"learner": ("id", "student"), "lesson": (), "due": ("new due", "days", "extension")}
EVERY = "*"


@dataclass(frozen=True)
class Extension:
    learner: str
    lesson: str             # a lesson id, or EVERY
    due: str = None         # an ISO moment (UTC), or
    days: float = None      # days added to the lesson's due date
    source: str = ""        # the file and line it came from, for messages

    def row(self):
        return (self.learner, self.lesson, self.due, self.days)

    def applied(self, due):
        """The due date `due` (an aware datetime, or None) once extended."""
        if self.due:
            return dates.of_text(self.due)
        return None if due is None else due + dt.timedelta(days=self.days)

    def describe(self):
        return ("your extension" if self.due else
                f"extended by {self.days:g} day{'s' if self.days != 1 else ''}")


def days_of(text):
    text = text.strip().lower().removesuffix("days").removesuffix("day").strip()
    try:
        days = float(text)
    except ValueError:
        return None
    return days if math.isfinite(days) and 0 <= days <= 3660 else None


def read(path, roadmap, tz=dates.UTC):
    """The extensions in `path`, each for a lesson of `roadmap` (or every lesson); raises
    CourseError for one that cannot be used."""
    found, seen = [], {}
    for line, row in read_rows(path, COLUMNS, ("learner", "lesson", "due"), "extensions file"):
        where = f"{path}, line {line}"
        if not row["learner"]:
            raise CourseError(f"{where}: no learner")
        lesson = row["lesson"]
        if lesson != EVERY:
            try:
                lesson = roadmap.find(lesson).id
            except UnknownLesson as exc:
                raise CourseError(f"{where}: {exc}") from None
        key = (row["learner"], lesson)
        if key in seen:
            raise CourseError(f"{where}: {row['learner']} has an extension for {lesson} already "
                              f"(line {seen[key]})")
        seen[key] = line
        days = days_of(row["due"])
        if days is not None:
            found.append(Extension(row["learner"], lesson, days=days, source=where))
        else:
            due = dates.moment(row["due"], tz, f"{where}, due (a date, or a number of days)")
            found.append(Extension(row["learner"], lesson, due=due.isoformat(), source=where))
    return found


def check(extensions, learners):
    """Raise CourseError when an extension is for a learner not in `learners`."""
    known = set(learners)
    for ext in extensions:
        if ext.learner not in known:
            raise CourseError(f"{ext.source}: an extension for {ext.learner!r}, who is neither in "
                              "the class nor on the roster; nothing was graded")


def find(folder, named=None):
    """The extensions file to use: `named`, else extensions.csv beside the class folder, or None."""
    if named:
        return Path(named)
    beside = Path(folder).resolve().parent / FILE
    return beside if beside.is_file() else None
