"""The bubblewrap sandbox a warm worker runs in for instructor grading.

Inside: no network; its own PID, IPC and UTS namespaces; read-only views of the system libraries, of
the Python installation and of the grader's child-side code, nothing else; a private size-limited
/tmp. Run by root, the worker keeps only the capabilities it needs to manage its children (switch
user, kill, clean /tmp); every child runs as an unprivileged user of its own, so the process limit
holds and the child cannot signal or trace the worker. Run by anyone else, bubblewrap maps the
worker to an unprivileged user of a new user namespace instead.
"""
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from grader.errors import GraderError

CHILD_HOME = "/opt/grader"
TMP_MB = 64
SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin")
CAPABILITIES = ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_DAC_OVERRIDE", "CAP_FOWNER")
INSTALL_HINT = ("bubblewrap is not installed: install it (Debian/Ubuntu: `apt-get install "
                "bubblewrap`), or pass --no-sandbox to grade without it")


def bwrap():
    """The bubblewrap executable; raises GraderError when it is missing or cannot run here."""
    path = shutil.which("bwrap")
    if path is None:
        raise GraderError(INSTALL_HINT)
    probe = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise GraderError(f"bubblewrap cannot create a sandbox here ({probe.stderr.strip()}); "
                          "pass --no-sandbox to grade without it")
    return path


def python_roots():
    """The folders the interpreter and its installed packages live in."""
    paths = {sys.prefix, sys.base_prefix, sysconfig.get_paths()["purelib"],
             sysconfig.get_paths()["platlib"], str(Path(sys.executable).resolve().parent.parent)}
    roots = []
    for p in sorted(paths, key=len):
        if os.path.isdir(p) and not any(p == r or p.startswith(r + os.sep) for r in roots):
            roots.append(p)
    return roots


class Mounts:
    """bwrap arguments that show host paths read-only, their parent folders readable by anyone."""

    def __init__(self):
        self.argv, self.made = [], {"/", "/tmp"}

    def parents(self, target):
        for parent in reversed(Path(target).parents):
            if str(parent) not in self.made:
                self.made.add(str(parent))
                self.argv += ["--perms", "0755", "--dir", str(parent)]

    def ro_bind(self, source, target=None):
        target = target or source
        self.parents(target)
        self.argv += ["--ro-bind", str(source), str(target)]
        self.made.add(str(target))


def command(bwrap_path, grader_home):
    """The bwrap argument list that runs a worker; returns (argv prefix, uid for children or None)."""
    argv = [bwrap_path, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--new-session", "--proc", "/proc", "--dev", "/dev",
            "--perms", "1777", "--size", str(TMP_MB << 20), "--tmpfs", "/tmp", "--chdir", "/tmp"]
    mounts = Mounts()    # after /tmp, so a Python installation under /tmp is shown inside it
    for path in SYSTEM:
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            mounts.ro_bind(path)
    if os.path.exists("/etc/ld.so.cache"):
        mounts.ro_bind("/etc/ld.so.cache")
    for root in python_roots():
        mounts.ro_bind(root)
    package = Path(grader_home) / "grader"
    for part in ("__init__.py", "runner/__init__.py", "runner/child"):
        mounts.ro_bind(package / part, f"{CHILD_HOME}/grader/{part}")
    argv += mounts.argv
    if os.geteuid() == 0:
        argv += ["--cap-drop", "ALL"]
        for cap in CAPABILITIES:
            argv += ["--cap-add", cap]
        return argv, 100_000 + secrets.randbelow(1 << 30)
    return argv + ["--unshare-user", "--uid", "65534", "--gid", "65534"], None
