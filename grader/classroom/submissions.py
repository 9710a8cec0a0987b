"""Find a class's submissions: one folder per learner, each holding that learner's files.

A submission is a regular file inside the learner's folder (learnerfiles reads the folder without
ever following a link). Every file under a learner's folder is either graded as one lesson's
submission or noted as not graded, with the reason; every learner x lesson without a submission is
noted too. A file belongs to a lesson when, in this order:
* its name names the lesson (`01-softmax.py`, `01_Softmax_v2.py`, `01-softmax (1).PY`,
  `Softmax.py`: see filenames), or it sits in a folder that names it (`01-softmax/solution.py`,
  `01-softmax/Solution.py`, or the only submission file in that folder), at any depth:
  `exercises/01-softmax/solution.py` in a clone of the whole workbook counts (the clone's other
  parts, such as its references, and the workbook's own READMEs are not submissions);
* its name is one of the functions only that lesson asks for (`attention.py`);
* it is a bare `solution.py` whose top-level definitions match one lesson's best.
Where several files claim one lesson, the newest that can be read is graded (then the one whose
name says it is the later version, then the one in the workbook's own layout) and the others are
noted. A link is never followed: one that claims a lesson is graded 0, saying so, and a learner's
folder that is a link is graded 0 on every lesson. A SUBMISSIONS folder that itself holds lesson
files is graded as one learner.

SUFFIXES lists the kinds of file a learner hands in (Python files and notebooks, whose answer cells
are the code); `read_functions` is the one place that looks inside a file. An nbgrader course's
`submitted/<learner>/<assignment>/NN-slug.ipynb` is read as a class of learners. Learner ids and
paths are kept printable (bytes that are not UTF-8 become backslash escapes).
"""
import ast
import os
import re
from dataclasses import dataclass
from pathlib import Path

from grader.errors import GraderError
from .course.handed_in import TIME_FILES
from grader.answers import MAX_NOTEBOOK, MAX_SOURCE, read_answer
from grader.notebooks.read import learners_folder
from . import filenames, learnerfiles
from .learnerfiles import Refused

SUFFIXES = (".py", ".ipynb")
MAX_SIZE = {".py": MAX_SOURCE, ".ipynb": MAX_NOTEBOOK}
CACHES = {"__pycache__", ".ipynb_checkpoints"}       # skipped without a word
ENVIRONMENTS = {"node_modules", ".venv", "venv"}    # skipped, and noted as not read
WORKBOOK_PARTS = {"solutions", "grader", "tests", "notebooks", "docs", "Makefile", "README.md",
                  "pyproject.toml", "requirements.txt"}
WORKBOOK_FILES = {"readme.md", "makefile"}      # the workbook's own, in exercises/ and lesson folders
ARCHIVES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")
NOT_REGULAR = "not a regular file (a pipe, a device or a folder); submit the file itself"


def printable(text):
    """`text` (a name read from the disk) as it can be stored and shown: bytes that are not UTF-8
    become backslash escapes."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:          # a surrogate no file name decodes to
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def link_refusal(what, target):
    return (f"{what} is a symbolic link (to {printable(target)}): links are not followed, so it "
            "was not read; hand in the file itself")


@dataclass(frozen=True)
class Submission:
    learner: str
    lesson: object      # grader.lessons.lesson.Lesson
    path: Path          # where it is, as messages and the gradebook name it: never opened by it
    folder: Path        # the learner's folder
    entry: learnerfiles.Entry = None    # what discovery listed (None: the learner's folder itself)
    refused: str = None     # why it is not read at all: a link, too large, not a regular file
    link: str = None        # a refused link's target

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
        return self.refused

    @property
    def cap(self):
        return MAX_SIZE.get(self.entry.suffix, MAX_SOURCE)

    def read(self):
        """The file's bytes, reached without following a link; raises Refused."""
        return learnerfiles.read(self.folder, self.entry, self.cap)

    def sha256(self):
        """The file's SHA-256, read in chunks; raises Refused."""
        return learnerfiles.digest(self.folder, self.entry, self.cap)


@dataclass(frozen=True)
class Ungraded:
    learner: str        # None: a file at the top of the class folder
    lesson: str         # a lesson id, or None when the file names no lesson
    path: str           # relative to the class folder; None when nothing was submitted
    reason: str
    link: str = None    # a link not followed: its target

    def row(self):
        return (self.learner, self.lesson, self.path, self.reason)


def norm(name):
    """A name as compared with lesson names: lower case, no separators, no leading `lesson`."""
    name = re.sub(r"[\s_.\-]+", "", name.lower())
    return name.removeprefix("lesson")


def lesson_names(lesson_id):
    number, slug = lesson_id.split("-", 1)
    return {norm(lesson_id), norm(slug), norm(number), str(int(number)),
            str(int(number)) + norm(slug)}


def stem_of(name):
    """A name without its suffix when it is a submission's suffix (in any case)."""
    stem, suffix = os.path.splitext(name)
    return stem if suffix.lower() in SUFFIXES else name


def read_functions(folder, entry):
    """(the top-level function names a submission defines, None), or (an empty set, why it could
    not be read: a notebook's reason, a refusal) when it cannot be read or parsed."""
    try:
        data = learnerfiles.read(folder, entry, MAX_SIZE.get(entry.suffix, MAX_SOURCE))
        source = read_answer(Path(printable(entry.name)), data)
        tree = ast.parse(source)
    except (Refused, ValueError) as exc:        # UnicodeDecodeError is a ValueError
        return set(), str(exc)
    except (SyntaxError, RecursionError, MemoryError):
        return set(), None          # graded, it gets the reason: here it only names no lesson
    return {n.name for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}, None


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
        self.defined = {l.id: reference_functions(l) for l in lessons}
        self.named = {}

    def by_name(self, name):
        """The lesson id a file or folder name names, or None."""
        if name not in self.named:
            self.named[name] = next((self.names[norm(k)] for k in filenames.keys(stem_of(name))
                                     if norm(k) in self.names), None)
        return self.named[name]

    def lesson_of(self, folder, entry, parent, alone_in_folder):
        """(lesson id, None) or (None, why it is not any lesson's file); `parent`: the name of
        the folder it is in."""
        keys = filenames.keys(stem_of(entry.name))
        if (lesson := self.by_name(entry.name)) is not None:
            return lesson, None
        if (lesson := self.by_name(parent)) is not None and (
                "solution" in keys or alone_in_folder):
            return lesson, None
        owners = next((self.functions[norm(k)] for k in keys if norm(k) in self.functions), set())
        if len(owners) == 1:
            return next(iter(owners)), None
        if len(owners) > 1:
            return None, (f"named after `{stem_of(printable(entry.name))}`, which lessons "
                          f"{', '.join(sorted(owners))} all ask for: name the file or its folder "
                          "after the lesson")
        if "solution" in keys and entry.kind != "link":
            return self.by_content(folder, entry)
        return None, ("its name names no lesson: name it after the lesson (01-softmax.py) or put "
                      "it in the lesson's folder (01-softmax/solution.py)")

    def by_content(self, folder, entry):
        defined, unread = read_functions(folder, entry)
        if unread:
            return None, (f"a {printable(entry.name)} outside a lesson folder, read to find its "
                          f"lesson, could not be read: {unread}")
        scored = sorted(((len(defined & mine) / len(defined | mine), lesson_id)
                         for lesson_id, mine in self.defined.items()
                         if set(self.lessons[lesson_id].spec.functions) <= defined), reverse=True)
        if scored and (len(scored) == 1 or scored[0][0] > scored[1][0]):
            return scored[0][1], None
        if scored:
            return None, (f"a solution.py outside a lesson folder that could be lessons "
                          f"{', '.join(sorted(i for _, i in scored))}: put it in its lesson's folder")
        return None, ("a solution.py outside a lesson folder that defines no graded lesson's "
                      "functions: put it in its lesson's folder (01-softmax/solution.py)")


def pruner(matcher):
    """What a learner's folder walk skips: caches, installed packages and a workbook clone's other
    parts (these two noted), and the workbook's own READMEs and Makefiles beside the exercises."""
    def prune(parts, folders, files):
        environments = sorted(d for d in folders if d in ENVIRONMENTS)
        skip_folders = {d for d in folders if d in CACHES} | set(environments)
        skip_files = set()
        notes = [(parts + (d,), "installed packages (a virtual environment or node_modules): "
                                "not read") for d in environments]
        names = {*folders, *files}
        if "exercises" in folders and WORKBOOK_PARTS & names:
            clone = sorted(WORKBOOK_PARTS & names)
            notes.append((parts, f"a copy of the workbook: only its exercises/ folder was read "
                                 f"(not {', '.join(clone)})"))
            skip_folders |= WORKBOOK_PARTS & set(folders)
            skip_files |= WORKBOOK_PARTS & set(files)
        if parts and (parts[-1] == "exercises" or matcher.by_name(parts[-1]) is not None):
            skip_files |= {f for f in files if f.lower() in WORKBOOK_FILES}
        return skip_folders, skip_files, notes
    return prune


def why_not(name):
    """Why a file that is not of a submitted kind is not graded."""
    if name.lower().endswith(ARCHIVES):
        return "an archive: the grader does not open archives; unpack it into the learner's folder"
    return f"not a submission: only {', '.join(SUFFIXES)} files are graded"


@dataclass(frozen=True)
class Claim:
    """A file that names a lesson, and why it cannot be read (None when it can)."""
    entry: learnerfiles.Entry
    refused: str

    def order(self):
        """Sorts the claim most worth grading first: one that can be read, the newest, the later
        version by its name, in the workbook's own layout, the shallowest."""
        final, number = filenames.version(stem_of(self.entry.name))
        return (self.refused is not None, -self.entry.mtime_ns, not final, -number,
                "exercises" not in self.entry.parts, len(self.entry.parts), self.entry.rel)

    def layout(self):
        return ("exercises" not in self.entry.parts, len(self.entry.parts), self.entry.rel)


def refusal(entry):
    """Why a claiming file is not read at all, from how it was listed (nothing is opened)."""
    if entry.kind == "link":
        return link_refusal(printable(entry.rel), entry.target)
    if entry.kind != "file":
        return NOT_REGULAR
    cap = MAX_SIZE.get(entry.suffix, MAX_SOURCE)
    if entry.size > cap:
        return (f"{printable(entry.name)} is larger than {cap // 1024:,} KiB ({entry.size:,} "
                "bytes): it was not read")
    return None


class Contents:
    """Whether two claims hold the same bytes: sizes first, then each file hashed once."""

    def __init__(self, folder):
        self.folder, self.hashes = folder, {}

    def digest(self, entry):
        if entry.parts not in self.hashes:
            try:
                self.hashes[entry.parts] = learnerfiles.digest(
                    self.folder, entry, MAX_SIZE.get(entry.suffix, MAX_SOURCE))
            except Refused:
                self.hashes[entry.parts] = None
        return self.hashes[entry.parts]

    def same(self, a, b):
        if a.refused or b.refused or a.entry.size != b.entry.size:
            return False
        first = self.digest(a.entry)
        return first is not None and first == self.digest(b.entry)


class Learner:
    """One learner's folder read into submissions and notes."""

    def __init__(self, root, learner, folder, matcher):
        self.learner, self.folder, self.matcher = learner, folder, matcher
        self.prefix = folder.relative_to(root).parts if folder != root else ()
        self.notes = []

    def rel(self, parts):
        return printable("/".join(self.prefix + tuple(parts)))

    def note(self, lesson, parts, reason, link=None):
        self.notes.append(Ungraded(self.learner, lesson, self.rel(parts), reason, link))

    def claims(self):
        """{lesson id: [Claim]} for the graded lessons; notes every other file."""
        entries, skipped = learnerfiles.walk(self.folder, pruner(self.matcher))
        for parts, why in skipped:
            self.notes.append(Ungraded(self.learner, None, self.rel(parts) + "/", why))
        per_folder = {}
        for entry in entries:
            if entry.suffix in SUFFIXES:
                per_folder[entry.parts[:-1]] = per_folder.get(entry.parts[:-1], 0) + 1
        claimed = {}
        for entry in entries:
            link = entry.target if entry.kind == "link" else None
            if entry.suffix not in SUFFIXES and link is None:
                if entry.name not in TIME_FILES:     # a platform's record of when, not work
                    self.note(None, entry.parts, why_not(entry.name))
                continue
            parent = entry.parts[-2] if len(entry.parts) > 1 else self.folder.name
            lesson_id, why = self.matcher.lesson_of(self.folder, entry, parent,
                                                    per_folder.get(entry.parts[:-1]) == 1)
            if lesson_id is None:
                why = link_refusal("it", link) if link is not None else why
                self.note(None, entry.parts, printable(why), link)
            elif lesson_id not in self.matcher.lessons:
                self.note(None, entry.parts, f"its lesson, {lesson_id}, was not among the lessons "
                                             "graded", link)
            else:
                claimed.setdefault(lesson_id, []).append(Claim(entry, refusal(entry)))
        return claimed

    def submissions(self, lessons):
        claimed = self.claims()
        found = []
        contents = Contents(self.folder)
        for lesson in lessons:
            claims = claimed.get(lesson.id, [])
            if not claims:
                self.notes.append(Ungraded(self.learner, lesson.id, None, "no submission"))
                continue
            claims.sort(key=Claim.order)
            best = claims[0]
            same = [c for c in claims[1:] if contents.same(best, c)]
            graded = min([best, *same], key=Claim.layout)
            alike = {id(c) for c in [best, *same]}
            found.append(Submission(self.learner, lesson, self.path(graded.entry.parts),
                                    self.folder, graded.entry, graded.refused,
                                    graded.entry.target))
            shown = self.rel(graded.entry.parts)
            for c in claims:
                if c is graded:
                    continue
                if id(c) in alike:
                    why = f"the same file as {shown}, which was graded"
                elif c.refused:
                    why = f"{c.refused}; {shown} was graded instead"
                else:
                    why = (f"another file for lesson {lesson.id}: the newest, {shown}, was "
                           "graded (keep one file per lesson)")
                self.note(lesson.id, c.entry.parts, why, c.entry.target)
        return found

    def path(self, parts):
        return Path(printable(str(self.folder.joinpath(*parts))))


def linked_learner(root, learner, name, target, lessons):
    """A learner whose folder is a link: nothing in it is read; every lesson is graded 0, saying so."""
    why = (f"the learner's folder {printable(name)} is a symbolic link (to {printable(target)}): "
           "links are not followed, so nothing in it was read; hand in the files themselves")
    path = Path(printable(str(root / name)))
    return [Submission(learner, lesson, path, root / name, None, why, target) for lesson in lessons]


def learner_ids(names):
    """Each folder name's learner id: printable, and unique."""
    ids, taken = {}, set()
    for name in names:
        base = printable(name)
        lid, n = base, 1
        while lid in taken:
            n += 1
            lid = f"{base}~{n}"
        taken.add(lid)
        ids[name] = lid
    return ids


def discover(root, lessons, known=(), learner=None):
    """(learner ids in order, their submissions, Ungraded notes) under `root`; raises GraderError on
    a bad folder. `known`: ids of lessons not graded this run; `learner`: `root` is this one
    learner's folder."""
    root = learners_folder(Path(root)).resolve()
    if not root.is_dir():
        raise GraderError(f"{root} is not a folder of submissions (one folder per learner)")
    matcher = Matcher(lessons, known)
    notes = []
    if learner is None and holds_lessons(root, matcher):
        learner = (root.parent if root.name == "exercises" else root).name
    if learner is not None:
        folders = [(learner, root, None)]
    else:
        folders = []
        items = [i for i in learnerfiles.top_level(root) if not i[0].startswith((".", "_"))]
        ids = learner_ids([name for name, kind, _ in items if kind in ("folder", "link")])
        for name, kind, target in items:
            if kind == "folder":
                folders.append((ids[name], root / name, None))
            elif kind == "link":
                folders.append((ids[name], root / name, target))
            else:
                notes.append(Ungraded(None, None, printable(name), "a file at the top of the class "
                                      "folder: each learner's files go in a folder named after "
                                      "them" + (" (unpack archives there)"
                                                if name.lower().endswith(ARCHIVES) else "")))
    if not folders:
        raise GraderError(f"{root} holds no learner folders: put each learner's lesson folders "
                          "(01-softmax/solution.py, ...) in a folder named after the learner")
    found = []
    for lid, folder, target in folders:
        if target is not None:
            found += linked_learner(root, lid, folder.name, target, lessons)
            continue
        one = Learner(root, lid, folder, matcher)
        try:
            found += one.submissions(lessons)
        except Refused as exc:         # the folder went away, or became a link, since it was listed
            found += [Submission(lid, lesson, Path(printable(str(folder))), folder, None, str(exc))
                      for lesson in lessons]
        notes += one.notes
    return [lid for lid, _, _ in folders], found, notes


def one_learner(root, lessons, known=()):
    """Whether the folder `root` is one learner's tree rather than a class."""
    return holds_lessons(learners_folder(Path(root)).resolve(), Matcher(lessons, known))


def holds_lessons(root, matcher):
    """Whether `root` holds lesson files or folders (so it is one learner's tree, not a class)."""
    for name, kind, _ in learnerfiles.top_level(root):
        if name == "exercises" and kind == "folder":
            return True
        if matcher.by_name(name) in matcher.lessons and (
                kind == "folder" or kind == "file" and Path(name).suffix.lower() in SUFFIXES):
            return True
    return False
