"""Find a class's submissions: one folder per learner, each holding that learner's files.

Every file under a learner's folder is either graded as one lesson's submission or noted as not
graded, with the reason; every learner x lesson without a submission is noted too. A file belongs to
a lesson when, in this order:
* its name names the lesson (`01-softmax.py`, `01_softmax.py`, `Softmax.py`), or it sits in a
  folder that names it (`01-softmax/solution.py`, `01-softmax/Solution.py`, or the only submission
  file in that folder), at any depth: `exercises/01-softmax/solution.py` in a clone of the whole
  workbook counts (the clone's other parts, such as its references, are not submissions);
* its name is one of the functions only that lesson asks for (`attention.py`);
* it is a bare `solution.py` whose top-level definitions match one lesson's best.
Two different files for one lesson are ambiguous: neither is graded and both are noted.
A SUBMISSIONS folder that itself holds lesson files is graded as one learner.

SUFFIXES lists the kinds of file a learner hands in (Python files and notebooks, whose answer cells
are the code); `read_functions` is the one place that looks inside a file. An nbgrader course's
`submitted/<learner>/<assignment>/NN-slug.ipynb` is read as a class of learners.
"""
import ast
import os
import re
from dataclasses import dataclass
from pathlib import Path

from grader.errors import GraderError
from grader.answers import read_answer
from grader.notebooks.read import learners_folder

SUFFIXES = (".py", ".ipynb")
SKIPPED_DIRS = {"__pycache__", ".ipynb_checkpoints", "node_modules", ".venv", "venv"}
WORKBOOK_PARTS = {"solutions", "grader", "tests", "notebooks", "Makefile", "README.md",
                  "pyproject.toml", "requirements.txt"}
ARCHIVES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")


@dataclass(frozen=True)
class Submission:
    learner: str
    lesson: object      # grader.lessons.lesson.Lesson
    path: Path
    folder: Path        # the learner's folder

    @property
    def shown(self):
        """How messages name the file: from the learner's folder on (never the instructor's
        folders)."""
        try:
            return self.path.relative_to(self.folder).as_posix()
        except ValueError:
            return self.path.name

    @property
    def problem(self):
        """Why the file cannot be graded as this learner's own, or None."""
        if not self.path.resolve().is_relative_to(self.folder.resolve()):
            return ("the submission is a link to a file outside the learner's folder; submit the "
                    "file itself")
        if self.path.exists() and not self.path.is_file():
            return "not a regular file (a pipe, a device or a folder); submit the file itself"
        try:
            with open(self.path, "rb") as f:
                f.read(1)
        except OSError as exc:
            return f"the file could not be read ({exc.strerror or exc})"
        return None


@dataclass(frozen=True)
class Ungraded:
    learner: str        # None: a file at the top of the class folder
    lesson: str         # a lesson id, or None when the file names no lesson
    path: str           # relative to the class folder; None when nothing was submitted
    reason: str

    def row(self):
        return (self.learner, self.lesson, self.path, self.reason)


def norm(name):
    """A name as compared with lesson names: lower case, no separators, no leading `lesson`."""
    name = re.sub(r"[\s_.\-]+", "", name.lower())
    return name.removeprefix("lesson")


def lesson_names(lesson_id):
    number, slug = lesson_id.split("-", 1)
    return {norm(lesson_id), norm(slug), norm(number), str(int(number))}


def read_functions(path):
    """The top-level function names a submission defines (empty when it cannot be parsed)."""
    if not path.is_file():
        return set()
    try:
        source = read_answer(path)
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def reference_functions(lesson):
    tree = ast.parse(lesson.reference_source)
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


class Matcher:
    """Which lesson a file belongs to, among the lessons graded (`lessons`) and the rest (`known`
    lesson ids, which are not graded this run)."""

    def __init__(self, lessons, known=()):
        self.lessons = {l.id: l for l in lessons}
        self.names = {}
        for lesson_id in [*self.lessons, *known]:
            for name in lesson_names(lesson_id):
                self.names.setdefault(name, lesson_id)
        owners = {}
        for l in lessons:
            for fn in l.spec.functions:
                owners.setdefault(norm(fn), set()).add(l.id)
        self.functions = owners

    def by_name(self, name):
        return self.names.get(norm(Path(name).stem if Path(name).suffix in SUFFIXES else name))

    def lesson_of(self, path, alone_in_folder):
        """(lesson id, None) or (None, why it is not any lesson's file)."""
        stem = norm(path.stem)
        if (lesson := self.by_name(path.name)) is not None:
            return lesson, None
        if (lesson := self.by_name(path.parent.name)) is not None and (
                stem == "solution" or alone_in_folder):
            return lesson, None
        owners = self.functions.get(stem, set())
        if len(owners) == 1:
            return next(iter(owners)), None
        if len(owners) > 1:
            return None, (f"named after `{path.stem}`, which lessons {', '.join(sorted(owners))} "
                          "all ask for: name the file or its folder after the lesson")
        if stem == "solution":
            return self.by_content(path)
        return None, ("its name names no lesson: name it after the lesson (01-softmax.py) or put "
                      "it in the lesson's folder (01-softmax/solution.py)")

    def by_content(self, path):
        defined = read_functions(path)
        scored = sorted(((len(defined & reference_functions(l)) / len(defined | reference_functions(l)),
                          l.id) for l in self.lessons.values() if set(l.spec.functions) <= defined),
                        reverse=True)
        if scored and (len(scored) == 1 or scored[0][0] > scored[1][0]):
            return scored[0][1], None
        if scored:
            return None, (f"a solution.py outside a lesson folder that could be lessons "
                          f"{', '.join(sorted(i for _, i in scored))}: put it in its lesson's folder")
        return None, ("a solution.py outside a lesson folder that defines no graded lesson's "
                      "functions: put it in its lesson's folder (01-softmax/solution.py)")


def walk(folder):
    """(files, notes): every file under `folder` that might be a submission, and notes on the parts
    skipped as a whole (copies of the workbook). Hidden and cache folders are not submissions."""
    files, notes = [], []
    for here, dirs, names in os.walk(folder):
        here = Path(here)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        if "exercises" in dirs and WORKBOOK_PARTS & {*dirs, *names}:
            parts = sorted(WORKBOOK_PARTS & {*dirs, *names})
            notes.append((here, f"a copy of the workbook: only its exercises/ folder was read "
                                f"(not {', '.join(parts)})"))
            dirs[:] = [d for d in dirs if d not in WORKBOOK_PARTS]
            names = [n for n in names if n not in WORKBOOK_PARTS]
        files += [here / n for n in sorted(names) if not n.startswith(".")]
    return files, notes


def why_not(path):
    """Why a file that is not of a submitted kind is not graded."""
    if path.name.lower().endswith(ARCHIVES):
        return "an archive: the grader does not open archives; unpack it into the learner's folder"
    return f"not a submission: only {', '.join(SUFFIXES)} files are graded"


def learner_files(root, learner, folder, matcher, lessons):
    """(submissions, ungraded notes) for one learner's folder."""
    rel = lambda p: str(p.relative_to(root)) if p.is_relative_to(root) else str(p)
    files, skipped = walk(folder)
    notes = [Ungraded(learner, None, rel(p) + "/", why) for p, why in skipped]
    claimed = {}
    per_folder = {}
    for path in files:
        if path.suffix in SUFFIXES:
            per_folder[path.parent] = per_folder.get(path.parent, 0) + 1
    for path in files:
        if path.suffix not in SUFFIXES:
            notes.append(Ungraded(learner, None, rel(path), why_not(path)))
            continue
        lesson_id, why = matcher.lesson_of(path, per_folder[path.parent] == 1)
        if lesson_id is None:
            notes.append(Ungraded(learner, None, rel(path), why))
        elif lesson_id not in matcher.lessons:
            notes.append(Ungraded(learner, None, rel(path),
                                  f"its lesson, {lesson_id}, was not among the lessons graded"))
        else:
            claimed.setdefault(lesson_id, []).append(path)
    found = []
    for lesson in lessons:
        paths = claimed.get(lesson.id, [])
        if not paths:
            notes.append(Ungraded(learner, lesson.id, None, "no submission"))
            continue
        contents = {same_content(p) for p in paths}
        if len(contents) > 1:
            listed = ", ".join(rel(p) for p in paths)
            notes += [Ungraded(learner, lesson.id, rel(p), f"{len(paths)} different files for "
                               f"lesson {lesson.id} ({listed}): the grader cannot tell which to "
                               "grade; keep one") for p in paths]
            continue
        paths.sort(key=lambda p: ("exercises" not in p.parts, len(p.parts), str(p)))
        found.append(Submission(learner, lesson, paths[0], folder))
        notes += [Ungraded(learner, lesson.id, rel(p), f"the same file as {rel(paths[0])}, "
                           "which was graded") for p in paths[1:]]
    return found, notes


def same_content(path):
    if not path.is_file():
        return str(path)          # nothing to compare: graded to say why
    try:
        return path.read_bytes()
    except OSError:
        return str(path)          # unreadable: counted as its own content, graded to say so


def discover(root, lessons, known=(), learner=None):
    """(learner ids in order, their submissions, Ungraded notes) under `root`; raises GraderError on
    a bad folder. `known`: ids of lessons not graded this run; `learner`: `root` is this one
    learner's folder."""
    root = learners_folder(Path(root))
    if not root.is_dir():
        raise GraderError(f"{root} is not a folder of submissions (one folder per learner)")
    matcher = Matcher(lessons, known)
    notes = []
    if learner is None and one_learner(root, matcher):
        learner = (root.parent if root.name == "exercises" else root).name
    if learner is not None:
        folders = [(learner, root)]
    else:
        folders = []
        for p in sorted(root.iterdir()):
            if p.name.startswith((".", "_")):
                continue
            if p.is_dir():
                folders.append((p.name, p))
            else:
                notes.append(Ungraded(None, None, p.name, "a file at the top of the class folder: "
                                      "each learner's files go in a folder named after them"
                                      + (" (unpack archives there)" if p.name.lower().endswith(ARCHIVES) else "")))
    if not folders:
        raise GraderError(f"{root} holds no learner folders: put each learner's lesson folders "
                          "(01-softmax/solution.py, ...) in a folder named after the learner")
    found = []
    for name, folder in folders:
        subs, more = learner_files(root, name, folder, matcher, lessons)
        found += subs
        notes += more
    return [name for name, _ in folders], found, notes


def one_learner(root, matcher):
    """Whether `root` is one learner's tree rather than a class: it holds lesson files or folders."""
    for p in root.iterdir():
        if p.name == "exercises" and p.is_dir():
            return True
        if matcher.by_name(p.name) in matcher.lessons and (p.is_dir() or p.suffix in SUFFIXES):
            return True
    return False
