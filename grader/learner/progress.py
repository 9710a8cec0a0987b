"""The learner's progress (hints revealed, last result), in a file git ignores, written atomically."""
import json
import os
import tempfile
from pathlib import Path


def write_atomic(path, text):
    """Replace `path` with `text` so that an interruption leaves the old file or the new, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


class Progress:
    """Per lesson: hints (how many tiers revealed), passed, score."""

    def __init__(self, root):
        self.path = Path(root) / ".workbook" / "progress.json"
        try:
            self.data = json.loads(self.path.read_text())
        except FileNotFoundError:
            self.data = {}
        except ValueError:
            raise ValueError(f"{self.path} is damaged (not JSON); move it away to start afresh") from None

    def lesson(self, lesson_id):
        return self.data.get(lesson_id, {})

    def update(self, lesson_id, **fields):
        self.data.setdefault(lesson_id, {}).update(fields)
        write_atomic(self.path, json.dumps(self.data, indent=1, sort_keys=True) + "\n")
