"""The course file (course.toml beside the class folder, or --course): each lesson's points and
scoring rule (grader.judge.points.Rule), its due date and the late policy (course.late).

    timezone = "Europe/Berlin"      # due dates without an offset are read here (default UTC)
    release = "manual"              # feedback leaves only after `grader release` (default: auto)
    never_lower = true              # a regrade never lowers published points (default: false)
    broken_rule = 0                 # share of its cases' points a rule-breaking file keeps
    [late]                          # the default late policy (default: none)
    policy = "penalty"              # none | penalty | refuse
    per_day = 0.1                   # penalty: share of the points lost per day (or part) late
    floor = 0.5                     # penalty: share never lost
    [lessons.01]                    # a lesson by number, slug or id
    points = 10
    scoring = "fraction"            # fraction | all
    public = 1                      # weight of each public case (fraction)
    hidden = 2                      # weight of each hidden case (fraction)
    weights = { "example 1" = 3 }   # weights of named cases
    due = 2026-03-01T23:59:00
    late = { policy = "refuse", after_days = 2 }
"""
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from grader.judge.points import DEFAULT, SCORINGS, Rule
from grader.lessons.roadmap import UnknownLesson
from . import dates
from .late import NONE, Late
from .table import CourseError
from .values import flag, number, table, unknown_keys

FILE = "course.toml"
TOP = {"timezone", "broken_rule", "late", "lessons", "release", "never_lower"}
RELEASES = ("auto", "manual")
LESSON = {"points", "scoring", "public", "hidden", "weights", "due", "late", "broken_rule"}


@dataclass
class Course:
    rules: dict = field(default_factory=dict)       # lesson id -> points.Rule
    due: dict = field(default_factory=dict)         # lesson id -> aware datetime (UTC)
    late: dict = field(default_factory=dict)        # lesson id -> course.late.Late
    default_late: Late = NONE
    tz: object = dates.UTC
    path: Path = None
    manual_release: bool = False    # every lesson's feedback held until `grader release`
    never_lower: bool = False       # a regrade of a submission keeps its published points

    def rule(self, lesson_id):
        return self.rules.get(lesson_id, DEFAULT)

    def late_policy(self, lesson_id):
        return self.late.get(lesson_id, self.default_late)

    def check(self, lessons):
        """Raise CourseError when a lesson's weights name a case the lesson does not have."""
        for lesson in lessons:
            names = {c.name for c in lesson.cases}
            unknown = sorted(set(self.rule(lesson.id).weights) - names)
            if unknown:
                raise CourseError(f"{self.path}: lesson {lesson.id} has no case named "
                                  f"{', '.join(map(repr, unknown))} (its cases: "
                                  f"{', '.join(sorted(names))})")


def lesson_rule(spec, where, broken_rule):
    scoring = spec.get("scoring", "fraction")
    scoring = {"all-or-nothing": "all", "all_or_nothing": "all", "cases": "fraction",
               "weights": "fraction"}.get(scoring, scoring)
    if scoring not in SCORINGS:
        raise CourseError(f"{where}.scoring must be one of fraction, all-or-nothing, weights; "
                          f"not {spec.get('scoring')!r}")
    weights = {}
    for name, w in table(spec.get("weights", {}), f"{where}.weights").items():
        weights[name] = number(w, f"{where}.weights.{name!r}")
    return Rule(number(spec.get("points", 1), f"{where}.points"), scoring,
                number(spec.get("public", 1), f"{where}.public"),
                number(spec.get("hidden", 1), f"{where}.hidden"), weights,
                number(spec.get("broken_rule", broken_rule), f"{where}.broken_rule", 0, 1))


def parse(data, roadmap, path):
    """The Course a parsed course file `data` describes; raises CourseError."""
    unknown_keys(data, TOP, str(path))
    tz = dates.zone(data.get("timezone"))
    broken = number(data.get("broken_rule", 0), f"{path}: broken_rule", 0, 1)
    release = data.get("release", "auto")
    if release not in RELEASES:
        raise CourseError(f"{path}: release must be \"auto\" or \"manual\", not {release!r}")
    course = Course(default_late=Late.of(data.get("late"), f"{path}: [late]"), tz=tz, path=path,
                    manual_release=release == "manual",
                    never_lower=flag(data.get("never_lower", False), f"{path}: never_lower"))
    for name, spec in table(data.get("lessons", {}), f"{path}: [lessons]").items():
        try:
            lesson_id = roadmap.find(name).id
        except UnknownLesson as exc:
            raise CourseError(f"{path}: [lessons.{name}]: {exc}") from None
        if lesson_id in course.rules:
            raise CourseError(f"{path}: lesson {lesson_id} is given twice")
        where = f"{path}: lessons.{name}"
        spec = table(spec, where)
        unknown_keys(spec, LESSON, where)
        course.rules[lesson_id] = lesson_rule(spec, where, broken)
        if "due" in spec:
            course.due[lesson_id] = dates.moment(spec["due"], tz, f"{where}.due")
        if "late" in spec:
            course.late[lesson_id] = Late.of(spec["late"], f"{where}.late")
    return course


def load(path, roadmap):
    """The course file at `path`; raises CourseError naming what is wrong."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise CourseError(f"the course file {path} cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CourseError(f"the course file {path} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CourseError(f"the course file {path} is not valid TOML: {exc}") from None
    return parse(data, roadmap, path)


def find(folder, named=None):
    """The course file to use: `named`, else course.toml beside the class folder, else None."""
    if named:
        return Path(named)
    beside = Path(folder).resolve().parent / FILE
    return beside if beside.is_file() else None


def read(folder, named, roadmap, lessons):
    """The Course for grading `lessons` of the class in `folder` (`named`: the --course file), or
    None when there is no course file; raises CourseError."""
    path = find(folder, named)
    if path is None:
        return None
    course = load(path, roadmap)
    course.check(lessons)
    return course
