"""When a submission was handed in, from where the class came from, first found first:

* nbgrader: `timestamp.txt` in the submitted assignment's folder (nbgrader writes it as
  `%Y-%m-%d %H:%M:%S.%f %Z`, e.g. `2026-03-01 10:30:47.524219 UTC`);
* Gradescope: `submission_metadata.json` (its `created_at`, ISO 8601 with an offset) in the
  learner's folder, or beside it for the one submission an autograder grades;
* git: the commit time of the last commit that changed the file, when the learner's folder is a
  repository (git is run with no pager, no signature check and no global or system settings);
* otherwise the file's modification time.

Every file read here is a regular file reached without following a link, and small.
"""
import datetime as dt
import json
import os
import stat
import subprocess
from pathlib import Path

from .dates import UTC

SOURCES = {"nbgrader": "nbgrader's timestamp.txt", "gradescope": "Gradescope's submission time",
           "git": "the git commit time", "mtime": "the file's modification time"}
TIME_FILES = ("timestamp.txt", "submission_metadata.json")    # read here, never graded
MAX_BYTES = 1 << 20
GIT_SECONDS = 10


def small_text(path):
    """The text of the regular file at `path` (never through a link), or None."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            return f.read(MAX_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return None


def aware(when):
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def nbgrader_time(text):
    """nbgrader's timestamp (`2026-03-01 10:30:47.524219 UTC`, or ISO), as a UTC datetime."""
    text = text.strip()
    for suffix in (" UTC", " GMT", "Z"):
        text = text.removesuffix(suffix)
    try:
        return aware(dt.datetime.fromisoformat(text))
    except ValueError:
        return None


def gradescope_time(text):
    try:
        data = json.loads(text)
        return aware(dt.datetime.fromisoformat(data["created_at"].replace("Z", "+00:00")))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def from_nbgrader(submission):
    text = small_text(Path(submission.path).parent / "timestamp.txt")
    return text and nbgrader_time(text)


def from_gradescope(submission, alone):
    for folder in (submission.folder, *([submission.folder.parent] if alone else [])):
        text = small_text(folder / "submission_metadata.json")
        if text:
            return gradescope_time(text)
    return None


def from_git(submission):
    repo = submission.folder
    try:
        if not stat.S_ISDIR(os.lstat(repo / ".git").st_mode):
            return None
    except OSError:
        return None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(
            ["git", "-c", "log.showSignature=false", "-c", "core.fsmonitor=false", "--no-pager",
             "-C", str(repo), "log", "-1", "--no-show-signature", "--format=%ct", "--",
             submission.shown], capture_output=True, text=True, timeout=GIT_SECONDS, env=env,
            stdin=subprocess.DEVNULL)
        return dt.datetime.fromtimestamp(int(done.stdout.strip()), UTC) if done.returncode == 0 \
            else None
    except (OSError, subprocess.SubprocessError, ValueError, OverflowError):
        return None


def from_mtime(submission):
    try:
        return dt.datetime.fromtimestamp(os.lstat(submission.path).st_mtime, UTC)
    except (OSError, OverflowError, ValueError):
        return None


def handed_in(submission, alone=False):
    """(when `submission` was handed in, as an aware UTC datetime, and the SOURCES key it came
    from), or (None, None) when nothing says; `alone`: the class is this one learner's folder."""
    for source, find in (("nbgrader", from_nbgrader),
                         ("gradescope", lambda s: from_gradescope(s, alone)),
                         ("git", from_git), ("mtime", from_mtime)):
        when = find(submission)
        if when is not None:
            return when, source
    return None, None
