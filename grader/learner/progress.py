"""The learner's progress (hints revealed, last result), in a file git ignores, written atomically."""
import hashlib
import json
import shutil
import time
from pathlib import Path

from grader.files import write_atomic


def file_digest(path):
    """The SHA-256 of a file's bytes, or None when there is no file."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


class Progress:
    """Per lesson: hints (how many tiers revealed), passed, score, and the digest of the file the
    last check graded. A damaged file is kept aside and progress starts afresh (`notice` says so)."""

    def __init__(self, root):
        self.path = Path(root) / ".workbook" / "progress.json"
        self.notice = None
        try:
            self.data = json.loads(self.path.read_text())
            if not (isinstance(self.data, dict)
                    and all(isinstance(v, dict) for v in self.data.values())):
                raise ValueError("not a progress record")
        except FileNotFoundError:
            self.data = {}
        except (ValueError, UnicodeDecodeError):
            kept = self.path.with_name(f"progress.damaged-{time.strftime('%Y%m%d-%H%M%S')}.json")
            shutil.copyfile(self.path, kept)
            self.path.unlink()
            self.data = {}
            self.notice = (f"{self.path.parent.name}/{self.path.name} was damaged, so your progress "
                           f"starts afresh; the damaged file is kept as {self.path.parent.name}/"
                           f"{kept.name}.")

    def lesson(self, lesson_id):
        return self.data.get(lesson_id, {})

    def update(self, lesson_id, **fields):
        self.data.setdefault(lesson_id, {}).update(fields)
        write_atomic(self.path, json.dumps(self.data, indent=1, sort_keys=True) + "\n")
