"""What a fixture shared between tests holds, as a fingerprint that any change to it alters.

A value's fingerprint maps each place in it to what is there: for a Path, every entry of its tree
(links not followed) with its kind, size, permissions and modification and status-change times (a
write, a copy, a rename, a chmod or a restored modification time all change the last); for arrays,
tensors and modules, a digest of their bytes; for plain data, its repr; dataclasses, tuples, lists,
sets and dicts are followed into. Anything else (a worker pool, a cluster, a function) is opaque.
"""
import dataclasses
import hashlib
import os
import stat
import sys
from pathlib import Path

import numpy as np

# not content: bytecode and test caches, and a checkout's virtual environment and history
SKIPPED = {"__pycache__", ".hypothesis", ".pytest_cache", ".venv", ".git"}
PLAIN = (str, bytes, int, float, complex, bool, type(None))


def tree(path, where):
    """Every entry under `path`, named `where` + its path inside."""
    found = {}
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return {where: "missing"}
    if stat.S_ISDIR(st.st_mode):
        found[where] = ("dir", stat.S_IMODE(st.st_mode))
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.name not in SKIPPED:
                    found.update(tree(entry.path, f"{where}/{entry.name}"))
    elif stat.S_ISLNK(st.st_mode):
        found[where] = ("link", os.readlink(path), st.st_ctime_ns)
    else:
        found[where] = ("file", st.st_size, stat.S_IMODE(st.st_mode), st.st_mtime_ns,
                        st.st_ctime_ns)
    return found


def digest(data):
    return hashlib.sha256(data).hexdigest()


def fingerprint(value, where="", seen=None):
    """{place: what is there} for everything `value` holds."""
    seen = set() if seen is None else seen
    if isinstance(value, PLAIN):
        return {where: repr(value)}
    if isinstance(value, Path):
        return tree(value, f"{where}<{value}>")
    if id(value) in seen:
        return {}
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        data = repr(value.tolist()).encode() if value.dtype.hasobject else \
            np.ascontiguousarray(value).data
        return {where: (value.dtype.str, value.shape, digest(data))}
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        flat = value.detach().cpu().contiguous().reshape(-1)
        return {where: (str(value.dtype), tuple(value.shape),
                        digest(flat.view(torch.uint8).numpy().data))}
    if torch is not None and isinstance(value, torch.nn.Module):
        value = value.state_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=repr)
    if isinstance(value, (tuple, list)):
        value = dict(enumerate(value))
    if isinstance(value, dict):
        found = {where: (type(value).__name__, len(value))}
        for key, item in value.items():
            found.update(fingerprint(item, f"{where}[{key!r}]", seen))
        return found
    return {where: type(value).__qualname__}


def changes(before, after):
    """The places whose content differs, each with how: added, removed or changed."""
    return sorted([(place, "removed") for place in before.keys() - after.keys()]
                  + [(place, "added") for place in after.keys() - before.keys()]
                  + [(place, "changed") for place in before.keys() & after.keys()
                     if before[place] != after[place]])
