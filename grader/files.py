"""Writing files so that an interruption never leaves one half-written."""
import os
import tempfile
from pathlib import Path


def write_atomic(path, text, mode=None):
    """Replace `path` with `text` so that an interruption leaves the old file or the new, never half
    (`mode`: the new file's permission bits; default: its owner's alone). Text is written as UTF-8."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        if mode is not None:
            os.chmod(fd, mode & 0o7777)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
