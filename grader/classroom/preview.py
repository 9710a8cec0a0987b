"""`grader grade --preview`: grade into a scratch copy of the gradebook and say whose points would
change, by how much and why (the cases that flipped, the diagnoses found or gone), writing nothing
to the real output folder."""
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grader.errors import GraderError
from . import view as class_view
from .classgrade import check_folders, grade_class
from .course.published import SAME
from .gradebook import SQLITE_MAGIC



@dataclass(frozen=True)
class Change:
    learner: str
    lesson: str
    before: float           # None: nothing counted before
    after: float            # None: nothing would count
    causes: tuple           # words, e.g. "case 'huge logits' now fails"
    scores: float = None    # never_lower: the lower points the submission would score, `after`
                            # being the published points kept

    def line(self):
        def shown(points):
            return "nothing" if points is None else f"{points:.4g}"
        why = f": {'; '.join(self.causes)}" if self.causes else ""
        if self.scores is not None:
            return (f"{self.learner} x {self.lesson}: kept at the published {self.after:.4g} "
                    f"(it would score {self.scores:.4g}, {self.scores - self.after:+.4g}){why}")
        delta = ("" if self.before is None or self.after is None
                 else f" ({self.after - self.before:+.4g})")
        return (f"{self.learner} x {self.lesson}: {shown(self.before)} -> {shown(self.after)}"
                f"{delta}{why}")


def copy_gradebook(source, target):
    """Copy the gradebook at `source` to `target` as one consistent snapshot, reading it only."""
    with open(source, "rb") as f:
        if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            raise GraderError(f"{source} is not an SQLite gradebook; it was left untouched")
    try:
        src = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(target)
            with dst:
                src.backup(dst)
            dst.close()
        finally:
            src.close()
    except sqlite3.DatabaseError as exc:
        raise GraderError(f"{source} could not be read for a preview ({exc}); it was left "
                          "untouched") from None


def causes(old, new):
    """What differs between two Current results of a learner x lesson, in words."""
    if old is None or new is None:
        return ("newly graded",) if old is None else ("no longer graded",)
    words = []
    was = {c["name"]: c["passed"] for c in old.cases}
    for c in new.cases:
        if c["name"] not in was:
            words.append(f"new case '{c['name']}' {'passes' if c['passed'] else 'fails'}")
        elif was[c["name"]] != c["passed"]:
            words.append(f"case '{c['name']}' now {'passes' if c['passed'] else 'fails'}")
    words += [f"case '{name}' is gone" for name in was if name not in {c["name"] for c in new.cases}]
    found = {d["mistake"] for d in new.diagnosis}
    lost = {d["mistake"] for d in old.diagnosis}
    words += [f"diagnosed: {m}" for m in sorted(found - lost)]
    words += [f"no longer diagnosed: {m}" for m in sorted(lost - found)]
    if new.violations != old.violations:
        words.append("the rules it breaks changed")
    if (new.error or "") != (old.error or ""):
        words.append("its error changed")
    return tuple(words)


def same(a, b):
    return a is None and b is None or (a is not None and b is not None and abs(a - b) <= SAME)


def changes(before, after):
    """Change of every learner x lesson whose points differ between two ClassViews, or whose
    score would drop below the published points that never_lower keeps."""
    found = []
    for learner in sorted(set(before.learners) | set(after.learners)):
        for lesson in [l.id for l in after.lessons]:
            old, new = before.earned(learner, lesson), after.earned(learner, lesson)
            kept = after.kept(learner, lesson) is not None
            scores = after.scored(learner, lesson) if kept else None
            if same(old, new) and not (kept and not same(before.scored(learner, lesson), scores)):
                continue
            found.append(Change(learner, lesson, old, new,
                                causes(before.current.get((learner, lesson)),
                                       after.current.get((learner, lesson))), scores))
    return found


def preview_class(folder, lessons, out, **grading):
    """(the Run, [Change]) of grading `folder` into a scratch copy of out/gradebook.sqlite (keyword
    arguments as grade_class takes them); `out` is only read."""
    check_folders(folder, out)
    source = Path(out) / "gradebook.sqlite"
    with tempfile.TemporaryDirectory(prefix="grader-preview-") as scratch:
        scratch = Path(scratch)
        if source.exists():
            copy_gradebook(source, scratch / "gradebook.sqlite")
        before = load(scratch)
        done = grade_class(folder, lessons, scratch, **grading)
        after = load(scratch)
    return done, changes(before, after)


def load(folder):
    """The ClassView of the gradebook in `folder` (an empty one when there is none yet)."""
    from .gradebook import connect
    path = Path(folder) / "gradebook.sqlite"
    if not path.exists():
        return class_view.ClassView([], [], {}, [])
    db = connect(path)          # the scratch copy: migrated there if it is of an older schema
    try:
        return class_view.load(db)
    finally:
        db.close()
