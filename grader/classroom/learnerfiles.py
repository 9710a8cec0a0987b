"""A learner's folder as the grader may read it: the regular files inside it, found and opened
without ever following a symbolic link, so nothing outside the folder is listed, read or hashed.

Folders are walked through file descriptors, each opened with O_NOFOLLOW relative to its parent, so
a folder that is (or becomes) a link is never entered. A file is opened the same way, one path
component at a time, each time it is read; the file opened must be the very one that was listed (the
same device and inode, still a regular file), so a link or another file put in its place after
discovery is refused, not followed. Files are read and hashed in chunks, and a file larger than the
grader accepts is refused from its size, before anything is read.
"""
import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1 << 20
MAX_DEPTH = 24              # folders below the learner's own, deeper ones are not read
MAX_ENTRIES = 50_000        # files and links listed per learner, the rest are not read
MAX_TARGET = 200            # characters of a link's target kept, to name it
NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | NOFOLLOW
FILE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | NOFOLLOW     # a pipe put in its place never blocks


class Refused(Exception):
    """A file that is not read, with the reason in words a learner can act on."""


@dataclass(frozen=True)
class Entry:
    """One thing listed in a learner's folder, as lstat saw it."""
    parts: tuple                # names from the learner's folder down to it
    kind: str                   # "file" (regular), "link" (symbolic) or "other" (pipe, device...)
    size: int
    mtime_ns: int
    identity: tuple             # (device, inode)
    target: str = None          # a link's target, as text (never followed)

    @property
    def name(self):
        return self.parts[-1]

    @property
    def rel(self):
        return "/".join(self.parts)

    @property
    def suffix(self):
        return os.path.splitext(self.name)[1].lower()


def link_target(name, dir_fd):
    try:
        target = os.readlink(name, dir_fd=dir_fd)
    except OSError:
        return "?"
    return target if len(target) <= MAX_TARGET else target[:MAX_TARGET] + "…"


def entry_of(parts, st, dir_fd):
    if stat.S_ISLNK(st.st_mode):
        kind = "link"
    else:
        kind = "file" if stat.S_ISREG(st.st_mode) else "other"
    target = link_target(parts[-1], dir_fd) if kind == "link" else None
    return Entry(tuple(parts), kind, st.st_size, st.st_mtime_ns, (st.st_dev, st.st_ino), target)


def entry_at(folder, path):
    """The Entry of `path` inside `folder` as lstat sees it now (for a file found by other means
    than discovery, such as nbgrader's submitted notebooks)."""
    parts = Path(path).relative_to(folder).parts
    fd = os.open(Path(path).parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return entry_of(parts, os.lstat(parts[-1], dir_fd=fd), fd)
    finally:
        os.close(fd)


def listing(fd):
    """(name, lstat result) of every entry of the folder open on `fd` (or at that path), sorted by
    name."""
    found = []
    with os.scandir(fd) as it:
        for item in it:
            try:
                found.append((item.name, item.stat(follow_symlinks=False)))
            except OSError:
                continue        # gone since it was listed
    return sorted(found, key=lambda t: t[0])


def top_level(root):
    """(name, kind, a link's target) of each entry of the class folder `root`, kind being "folder",
    "link", "file" or "other", as lstat sees it (a link is never followed)."""
    found = []
    for name, st in listing(root):
        if stat.S_ISDIR(st.st_mode):
            found.append((name, "folder", None))
        elif stat.S_ISLNK(st.st_mode):
            try:
                target = os.readlink(os.path.join(root, name))
            except OSError:
                target = "?"
            found.append((name, "link", target[:MAX_TARGET]))
        else:
            found.append((name, "file" if stat.S_ISREG(st.st_mode) else "other", None))
    return found


def walk(folder, prune):
    """(entries, notes) for the learner's folder at `folder` (itself never a link: see
    open_folder): every file, link and other non-folder below it, and (parts, why) notes on the
    folders not read. `prune(parts, folders, files)` returns (folders to skip, files to skip, its
    (parts, why) notes) for the folder at `parts`. Names starting with a dot are never read."""
    entries, notes = [], []
    top = open_folder(folder)
    stack = [(top, (), None)]
    try:
        while stack:
            fd, parts, pending = stack[-1]
            if pending is None:
                try:
                    pending = iter(list_folder(fd, parts, prune, entries, notes))
                except OSError as exc:
                    notes.append((parts, folder_problem(exc)))
                    pending = iter(())
                stack[-1] = (fd, parts, pending)
            name = next(pending, None)
            if name is None:
                os.close(fd)
                stack.pop()
                continue
            if len(parts) >= MAX_DEPTH:
                notes.append((parts + (name,), f"a folder nested more than {MAX_DEPTH} deep: "
                                               "not read"))
                continue
            if len(entries) >= MAX_ENTRIES:
                notes.append((parts + (name,), f"not read: more than {MAX_ENTRIES:,} files in "
                                               "the learner's folder"))
                break
            try:
                child = os.open(name, FOLDER_FLAGS, dir_fd=fd)
            except OSError as exc:
                notes.append((parts + (name,), folder_problem(exc)))
                continue
            stack.append((child, parts + (name,), None))
    finally:
        for fd, _, _ in stack:
            os.close(fd)
    return entries, notes


def list_folder(fd, parts, prune, entries, notes):
    """List one folder: its entries go to `entries`; returns the names of its sub-folders."""
    items = [(n, st) for n, st in listing(fd) if not n.startswith(".")]
    folders = [n for n, st in items if stat.S_ISDIR(st.st_mode)]
    files = [n for n, st in items if not stat.S_ISDIR(st.st_mode)]
    skip_folders, skip_files, noted = prune(parts, folders, files)
    notes += noted
    kept = [(n, st) for n, st in items if not stat.S_ISDIR(st.st_mode) and n not in skip_files]
    room = MAX_ENTRIES - len(entries)
    if len(kept) > room:
        notes.append((parts, f"more than {MAX_ENTRIES:,} files in the learner's folder: the rest "
                             "were not read"))
        kept = kept[:room]
    entries += [entry_of(parts + (n,), st, fd) for n, st in kept]
    return [n for n in folders if n not in skip_folders]


def folder_problem(exc):
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return "it was replaced by a link while it was read: not followed"
    return f"the folder could not be read ({exc.strerror or exc})"


def open_folder(path):
    """A descriptor on the learner's folder itself; Refused when it is a link or not a folder."""
    try:
        return os.open(path, FOLDER_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused("the learner's folder is a symbolic link: links are not followed") from None
        raise Refused(f"the learner's folder could not be read ({exc.strerror or exc})") from None


def open_file(folder, entry):
    """A descriptor on `entry`, reached from `folder` without following any link, and its fstat;
    Refused unless it is still the regular file that was listed."""
    fd = open_folder(folder)
    try:
        for name in entry.parts[:-1]:
            inner = os.open(name, FOLDER_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = inner
        f = os.open(entry.parts[-1], FILE_FLAGS, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise Refused(f"{entry.rel} (or a folder on its way) was replaced by a link after it "
                          "was found: links are not followed") from None
        raise Refused(f"the file could not be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    st = os.fstat(f)
    if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != entry.identity:
        os.close(f)
        raise Refused(f"{entry.rel} was replaced by another file after it was found; hand in "
                      "the file itself, and leave it in place while grading runs")
    return f, st


def too_large(entry, size, cap):
    return Refused(f"{entry.name} is larger than {cap // 1024:,} KiB ({size:,} bytes): it was "
                   "not read")


def read(folder, entry, cap):
    """The bytes of `entry` (at most `cap`); Refused when it is larger, a link or was replaced."""
    f, st = open_file(folder, entry)
    try:
        if st.st_size > cap:
            raise too_large(entry, st.st_size, cap)
        chunks, total = [], 0
        while total <= cap:
            chunk = os.read(f, min(CHUNK, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > cap:
            raise too_large(entry, total, cap)
        return b"".join(chunks)
    finally:
        os.close(f)


def digest(folder, entry, cap):
    """The SHA-256 of `entry`, read in chunks; Refused as `read` refuses."""
    f, st = open_file(folder, entry)
    try:
        if st.st_size > cap:
            raise too_large(entry, st.st_size, cap)
        h, total = hashlib.sha256(), 0
        while chunk := os.read(f, CHUNK):
            total += len(chunk)
            if total > cap:
                raise too_large(entry, total, cap)
            h.update(chunk)
        return h.hexdigest()
    finally:
        os.close(f)
