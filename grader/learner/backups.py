"""Every version of a lesson file the learner set aside (by `reset`, `restore` or a notebook's
answer cell), never overwritten.

Versions live in `.workbook/backup/NN-slug/` as `1.py`, `2.py`, ... in the order they were saved.
A file equal to the stub, or to a version already kept, is not saved again.
"""
import time
from dataclasses import dataclass
from pathlib import Path

from grader.files import write_atomic
from grader.lessons import build

from .commands import make


@dataclass(frozen=True)
class Version:
    number: int
    path: Path

    @property
    def saved(self):
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.path.stat().st_mtime))

    @property
    def lines(self):
        return len(self.path.read_text(encoding="utf-8", errors="replace").splitlines())


def folder(root, lesson_id):
    return Path(root) / ".workbook" / "backup" / lesson_id


def versions(root, lesson_id):
    """The saved versions of a lesson, oldest first. A backup from before versions were numbered
    (`.workbook/backup/NN-slug.py`) becomes the next version, unless one holds it already."""
    legacy = Path(root) / ".workbook" / "backup" / f"{lesson_id}.py"
    here = folder(root, lesson_id)
    found = sorted((Version(int(p.stem), p) for p in here.glob("*.py") if p.stem.isdigit()),
                   key=lambda v: v.number)
    if legacy.is_file():
        text = legacy.read_bytes()
        if any(v.path.read_bytes() == text for v in found):
            legacy.unlink()
        else:
            here.mkdir(parents=True, exist_ok=True)
            number = found[-1].number + 1 if found else 1
            legacy.rename(here / f"{number}.py")
            found.append(Version(number, here / f"{number}.py"))
    return found


def save(root, lesson_id, text, stub):
    """Keep `text` as a new version; returns (the Version holding it, whether it is new), or
    (None, False) when `text` is the untouched stub."""
    if text == stub:
        return None, False
    kept = versions(root, lesson_id)
    for v in reversed(kept):
        if v.path.read_text(encoding="utf-8", errors="replace") == text:
            return v, False
    number = kept[-1].number + 1 if kept else 1
    path = folder(root, lesson_id) / f"{number}.py"
    write_atomic(path, text)
    return Version(number, path), True


def counted(numbers):
    """'version 1', 'versions 1 and 2', 'versions 1, 2 and 3'."""
    shown = [str(n) for n in numbers]
    if len(shown) == 1:
        return f"version {shown[0]}"
    return f"versions {', '.join(shown[:-1])} and {shown[-1]}"


def version_number(text, lesson_id):
    """The version a learner typed (`V=2`), as a number; raises ValueError saying what to type."""
    text = str(text).strip()
    if text.isascii() and text.isdigit() and int(text) >= 1:
        return int(text)
    raise ValueError(f"V={text} is not a version number. Versions are numbered 1, 2, 3, ...; "
                     f"`{make('backups', int(lesson_id[:2]))}` lists those of lesson "
                     f"{lesson_id[:2]}.")


def find(root, lesson_id, number=None):
    """Version `number` (default: the latest); raises ValueError naming the ones there are."""
    kept = versions(root, lesson_id)
    n = int(lesson_id[:2])
    if not kept:
        raise ValueError(f"Lesson {n:02d} has no saved versions yet. `{make('reset', n)}` saves "
                         "your file as one before it brings back the stub.")
    if number is None:
        return kept[-1]
    for v in kept:
        if v.number == number:
            return v
    raise ValueError(f"Lesson {n:02d} has no version {number}. The saved "
                     f"{'one is' if len(kept) == 1 else 'ones are'} "
                     f"{counted(v.number for v in kept)}; `{make('backups', n)}` lists them.")


def reset(wb, lesson):
    """Keep the learner's file as a new version, then restore the stub; returns what was done."""
    target, stub = wb.exercise(lesson.entry), build.stub_text(lesson)
    kept = set_aside(wb, lesson, target, stub)
    build.write_exercise(wb.roadmap, lesson, stub)
    wb.progress.update(lesson.id, passed=False, score=None, digest=None)
    return f"Restored the stub of exercises/{lesson.id}/solution.py. {kept}"


def restore(wb, lesson, number=None):
    """Bring back saved version `number` (default: the latest), keeping the current file first."""
    version = find(wb.root, lesson.id, number)
    text = version.path.read_text(encoding="utf-8")
    target = wb.exercise(lesson.entry)
    kept = set_aside(wb, lesson, target, build.stub_text(lesson))
    build.write_exercise(wb.roadmap, lesson, text)
    wb.progress.update(lesson.id, passed=False, score=None, digest=None)
    return (f"Restored version {version.number} (saved {version.saved}) as "
            f"exercises/{lesson.id}/solution.py. {kept}")


def set_aside(wb, lesson, target, stub):
    """Save the file at `target` before it is replaced; a sentence saying where it is."""
    if not target.is_file():
        return f"There was no exercises/{lesson.id}/solution.py before, so nothing needed saving."
    text = target.read_text(encoding="utf-8", errors="replace")
    version, new = save(wb.root, lesson.id, text, stub)
    if version is None:
        return (f"Your exercises/{lesson.id}/solution.py was still the untouched stub, so no "
                "version of it was saved.")
    where = version.path.relative_to(wb.root)
    n = lesson.entry.number
    how = (f"`{make('backups', n)}` lists every saved version; "
           f"`{make('restore', n, V=version.number)}` brings this one back.")
    if new:
        return f"Your version is saved as {where} (version {version.number}). {how}"
    return f"Your version was already saved as {where} (version {version.number}). {how}"


def listing(console, wb, lesson):
    kept = versions(wb.root, lesson.id)
    n = lesson.entry.number
    if not kept:
        console.print(f"Lesson {n:02d} has no saved versions yet. `{make('reset', n)}` saves your "
                      "file as one before it brings back the stub; so does running the notebook's "
                      "answer cell over a file you changed.")
        return
    console.print(f"Saved versions of exercises/{lesson.id}/solution.py, oldest first:")
    for v in kept:
        console.print(f"  {v.number:>3}  saved {v.saved}  {v.lines} lines  "
                      f"{v.path.relative_to(wb.root)}")
    console.print(f"`{make('restore', n, V='N')}` brings back version N (your current file is "
                  "saved first).")
