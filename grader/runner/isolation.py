"""Which isolation a pool's jobs get, and what it means in words: bubblewrap's sandbox; or, where
bubblewrap cannot start (a container whose seccomp profile denies user namespaces, as Docker's
default does) and the caller accepts it, each job as an unprivileged user of its own with no
network (child.asuser), which needs root; or none (trusted code only)."""
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from . import sandbox
from grader.errors import GraderError

HOME = str(Path(__file__).resolve().parents[2])
# What the fallback's child does before learner code runs, checked once: switch to a user, set
# no_new_privs, install the network filter; then no Internet socket may open.
PROBE = """\
import ctypes, os, socket, sys
from grader.runner.child import asuser
ctypes.CDLL(None).prctl(38, 1, 0, 0, 0)
os.setgroups([]); os.setresgid(65534, 65534, 65534); os.setresuid(65534, 65534, 65534)
asuser.confine()
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
except PermissionError:
    sys.exit(0)
sys.exit("the network filter let an Internet socket open")
"""


@dataclass(frozen=True)
class Isolation:
    kind: str               # "sandbox", "user" or "none"
    bwrap: str = None       # bubblewrap's path, for "sandbox"
    why: str = ""           # why bubblewrap could not start, for "user"

    def describe(self):
        if self.kind == "sandbox":
            return ("Isolation: bubblewrap's sandbox (no network; a file system that shows only "
                    "the system's libraries and Python; PID and IPC namespaces of its own).")
        if self.kind == "user":
            return ("Isolation: bubblewrap could not start here, so every job runs as an "
                    "unprivileged user of its own, with the same resource limits: it cannot read "
                    "what only root may (the autograder's source, submission and results folders), "
                    "opens no network socket (a seccomp filter), and what it leaves in the shared "
                    "temporary folders and System V IPC is removed after the job. The machine's "
                    f"other files, which anyone may read, stay readable. Bubblewrap said: {self.why}")
        return "Isolation: none (learner code ran as the grader, without the sandbox)."


NONE = Isolation("none")


def user_fallback_problem():
    """Why jobs cannot run as an unprivileged user here, or None when they can."""
    if os.geteuid() != 0:
        return "switching to an unprivileged user needs root"
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": HOME}
    done = subprocess.run([sys.executable, "-P", "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=60)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        return said[-1] if said else f"the check exited with status {done.returncode}"
    return None


def choose(sandboxed=True, fallback=False):
    """The strongest isolation available: bubblewrap; else, with `fallback`, the unprivileged-user
    fallback. Raises GraderError when neither is (or bubblewrap fails without `fallback`)."""
    if not sandboxed:
        return NONE
    try:
        return Isolation("sandbox", sandbox.bwrap())
    except GraderError as exc:
        if not fallback:
            raise
        problem = user_fallback_problem()
        if problem:
            raise GraderError(f"{exc} Nor can jobs run as an unprivileged user instead: "
                              f"{problem}.") from None
        return Isolation("user", why=str(exc))
