"""Generate the learner's files from each lesson's source: the stub and the README.

`exercises/.generated.json` records the hash of every generated file, so a rebuild can tell a stub
the learner changed (kept, never overwritten) from one that is merely out of date (regenerated).
"""
import hashlib
import json
from pathlib import Path

from . import regions
from .lesson import Lesson
from grader.files import write_atomic

LOCK = ".generated.json"


def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()


def readme(lesson):
    e, p = lesson.entry, lesson.prose
    tiers = ", ".join(f"{i}. {title}" for i, (title, _) in enumerate(p.hints, 1))
    return f"""# Lesson {e.number:02d} · {e.title}

Chapter: {e.chapter} ({e.framework}). Write your code in `solution.py` in this folder.

## Learn it

{p.sections["Learn it"]}

## Your turn

{p.sections["Your turn"]}

## Examples

{p.sections["Examples"]}

Numbers in the examples are rounded to 6 significant digits; your answer is checked to a tighter
tolerance than that.

## Check your work

```
make check L={e.number:02d}
```

It runs your `solution.py` on the examples above and on hidden cases, and says what is right, what
is wrong and why. Run it in the workbook's top folder, or run `make check` in this folder. (Without
make: `.venv/bin/grader check {e.number:02d}`.)

## Stuck?

```
make hint L={e.number:02d}
```

Each call reveals one more of three hints: {tiers}.
"""


def makefile(lesson):
    """A lesson folder's Makefile: the workbook's commands, run for this lesson from its folder."""
    return f"""# `make check`, `make hint`, `make reset`, ... for lesson {lesson.entry.number:02d}, from this folder:
# each runs the workbook's own `make TARGET L={lesson.entry.number:02d}` in the top folder.
L ?= {lesson.entry.number:02d}
.DEFAULT_GOAL := check
Makefile: ;
%:
	@$(MAKE) --no-print-directory -C ../.. $@ L=$(L)
"""


def generated(lesson):
    """The files generated for a lesson: path relative to exercises/ -> text."""
    return {f"{lesson.id}/solution.py": regions.stub(lesson.reference_source),
            f"{lesson.id}/README.md": readme(lesson),
            f"{lesson.id}/Makefile": makefile(lesson)}


def lessons(roadmap):
    return [Lesson(e, roadmap.root / "solutions" / e.id) for e in roadmap.entries
            if roadmap.available(e)]


def load_lock(root):
    path = Path(root) / "exercises" / LOCK
    return json.loads(path.read_text()) if path.is_file() else {}


def each_generated(roadmap):
    """(lesson id, its generated files or the error that stopped them) for every written lesson."""
    for lesson in lessons(roadmap):
        try:
            yield lesson.id, generated(lesson)
        except (OSError, ValueError) as e:  # a lesson still being written, or broken
            yield lesson.id, e


def build(roadmap):
    """Write every lesson's generated files; returns (relative path, what happened) pairs."""
    exercises = roadmap.root / "exercises"
    lock, report = load_lock(roadmap.root), []
    for lesson_id, files in each_generated(roadmap):
        if isinstance(files, Exception):
            report.append((lesson_id, f"skipped: {files}"))
            continue
        for rel, text in files.items():
            target = exercises / rel
            current = target.read_text() if target.is_file() else None
            if current == text:
                action = "unchanged"
            elif current is None or digest(current) == lock.get(rel):
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(target, text)
                action = "written"
            elif rel.endswith("solution.py"):
                action = (f"kept: you changed it (`make reset L={lesson_id[:2]}` restores the stub "
                          "and keeps your version)")
            else:
                action = "kept: you changed it (delete it and run `make build` to regenerate it)"
            lock[rel] = digest(text)
            report.append((rel, action))
    write_atomic(exercises / LOCK, json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return report


def drift(roadmap):
    """Generated files that no longer match their source (the stubs by their recorded hash)."""
    exercises, lock, stale = roadmap.root / "exercises", load_lock(roadmap.root), []
    for lesson_id, files in each_generated(roadmap):
        if isinstance(files, Exception):
            stale.append(f"{lesson_id}/")
            continue
        for rel, text in files.items():
            if rel.endswith("solution.py"):
                ok = lock.get(rel) == digest(text)
            else:
                ok = (exercises / rel).is_file() and (exercises / rel).read_text() == text
            if not ok:
                stale.append(rel)
    return stale


def started(root, entry, lock):
    """Whether the learner has changed this lesson's stub from the one recorded in `lock`."""
    path = Path(root) / "exercises" / entry.id / "solution.py"
    return path.is_file() and digest(path.read_text()) != lock.get(f"{entry.id}/solution.py")


def stub_text(lesson):
    """The fresh stub of a lesson, as `make build` writes it."""
    return generated(lesson)[f"{lesson.id}/solution.py"]


def write_exercise(roadmap, lesson, text):
    """Replace the learner's file of a lesson with `text` (the stub, or a saved version)."""
    target = roadmap.root / "exercises" / lesson.id / "solution.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, text)
