"""The bubblewrap sandbox the zygote and its warm workers run in for instructor grading.

Inside: no network; its own PID, IPC and UTS namespaces; read-only views of the system libraries and
of the Python installation, a copy of the grader's child-side code, nothing else, and nothing
writable: every job gets IPC and mount namespaces of its own, with fresh size-limited /tmp and
/dev/shm (the shared memory torch's and Python's multiprocessing use) that end with it
(child.isolate). Run by root, the workers keep only the capabilities they need to manage their
children (make their namespaces, switch user, kill), and share one sandbox; every child runs as an
unprivileged user of its worker's own, without capabilities, so the process limit holds and the
child cannot signal or trace any worker. Run by anyone else, bubblewrap maps the worker to an
unprivileged user of a new user namespace instead, the only user there is (so each worker has a
sandbox of its own): the worker keeps CAP_SYS_ADMIN there to make each job's namespaces, a PID
namespace among them, where the child, without capabilities, cannot signal the worker. That needs
user namespaces allowed to ordinary users; where they are not, bwrap() says which setting forbids
them and how to allow them.

No command line or environment inside names a host folder: bubblewrap reads its options (every
mount's source) from a file descriptor, a virtual environment is shown under a neutral folder and
the interpreter started from there, and the child-side code is copied in, not mounted. What still
shows: the mount table names the source folder of every bind mount (the kernel prints it), so the
Python installation's own folders show there, and its files say where they were installed.
"""
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from grader.errors import GraderError
from .child.isolate import JOB_TMP_MB

CHILD_HOME = "/opt/grader"
VENV_HOME = "/opt/python"
PATH = "/usr/local/bin:/usr/bin:/bin"
SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin")
CAPABILITIES = ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_SYS_ADMIN")
INSTALL_HINT = ("bubblewrap is not installed: install it (Debian/Ubuntu: `apt-get install "
                "bubblewrap`), or pass --no-sandbox to grade without it")


NO_SANDBOX = "or pass --no-sandbox to grade without it"
# The worker makes PID, IPC and mount namespaces, and a tmpfs, for every job (child.isolate).
NESTED = ("import ctypes, sys; c = ctypes.CDLL(None, use_errno=True); "
          "sys.exit((c.unshare(0x28020000) or c.mount(b'tmpfs', b'/tmp', b'tmpfs', 6, None)) "
          "and ctypes.get_errno())")


def bwrap():
    """The bubblewrap executable; raises GraderError when it is missing or cannot run here."""
    path = shutil.which("bwrap")
    if path is None:
        raise GraderError(INSTALL_HINT)
    argv = [path, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-pid",
            "--unshare-net"]
    if os.geteuid() != 0:
        argv += ["--unshare-user"]
    argv += ["--cap-drop", "ALL", "--cap-add", "CAP_SYS_ADMIN", sys.executable, "-I", "-c", NESTED]
    probe = subprocess.run(argv, capture_output=True, text=True)
    if probe.returncode != 0:
        said = probe.stderr.strip().splitlines()
        why = said[-1] if said else f"the jobs' own namespaces failed: {os.strerror(probe.returncode)}"
        raise GraderError(f"bubblewrap cannot create a sandbox here ({why}). "
                          f"{userns_fix()}; {NO_SANDBOX}")
    return path


def userns_fix(sysctl="/proc/sys"):
    """What keeps an ordinary user from making user namespaces here, and what fixes it."""
    def setting(name):
        try:
            return Path(sysctl, *name.split(".")).read_text().strip()
        except OSError:
            return None

    def fix(name, value):
        return (f"as root, run `sysctl -w {name}={value}` (and put `{name} = {value}` in a file "
                "in /etc/sysctl.d/ to keep it)")

    if os.geteuid() == 0:
        return "bubblewrap fails even for root here (a container without privileges?)"
    if setting("kernel.unprivileged_userns_clone") == "0":
        return ("the kernel lets no ordinary user make user namespaces "
                f"(kernel.unprivileged_userns_clone = 0): {fix('kernel.unprivileged_userns_clone', 1)}")
    if setting("user.max_user_namespaces") == "0":
        return ("the kernel allows no user namespaces (user.max_user_namespaces = 0): "
                f"{fix('user.max_user_namespaces', 15000)}")
    if setting("kernel.apparmor_restrict_unprivileged_userns") == "1":
        return ("AppArmor keeps ordinary users from making user namespaces "
                "(kernel.apparmor_restrict_unprivileged_userns = 1), and the grader's jobs need "
                "them inside the sandbox too: "
                f"{fix('kernel.apparmor_restrict_unprivileged_userns', 0)}")
    return ("ordinary users may not make user namespaces here (a container, or a security module), "
            "and the sandbox needs them (a setuid bubblewrap alone is not enough: every job gets "
            "a PID namespace of its own inside it): ask the machine's administrator to allow "
            "them, or grade as root")


def python_roots():
    """The folders the interpreter and its installed packages live in."""
    paths = {sys.prefix, sys.base_prefix, sysconfig.get_paths()["purelib"],
             sysconfig.get_paths()["platlib"], str(Path(sys.executable).resolve().parent.parent)}
    roots = []
    for p in sorted(paths, key=len):
        if os.path.isdir(p) and not any(p == r or p.startswith(r + os.sep) for r in roots):
            roots.append(p)
    return roots


def venv_view(path):
    """Where a host path of the Python installation shows inside: under VENV_HOME when it lies in
    a virtual environment (which may live anywhere, e.g. inside the grader's checkout), else as is."""
    venv = sys.prefix if sys.prefix != sys.base_prefix else None
    if venv and (path == venv or path.startswith(venv + os.sep)):
        return VENV_HOME + path[len(venv):]
    return path


class Mounts:
    """bwrap arguments that show host paths read-only, their parent folders readable by anyone, and
    copies of files (a bytes item in `argv` stands for a file descriptor holding those bytes)."""

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

    def tmpfs(self, target):
        self.parents(target)
        self.argv += ["--tmpfs", str(target)]
        self.made.add(str(target))

    def copy(self, data, target):
        self.parents(target)
        self.argv += ["--perms", "0444", "--file", data, str(target)]


def options(grader_home):
    """bwrap's options for the zygote and its workers. A bytes item stands for a file descriptor
    that holds those bytes."""
    argv = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--new-session", "--proc", "/proc", "--dev", "/dev",
            "--size", str(JOB_TMP_MB << 20), "--tmpfs", "/tmp", "--chdir", "/tmp",
            "--size", str(JOB_TMP_MB << 20), "--tmpfs", "/dev/shm"]   # jobs mount their own there
    mounts = Mounts()    # after /tmp, so a Python installation under /tmp is shown inside it
    for path in SYSTEM:
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            mounts.ro_bind(path)
    if os.path.exists("/etc/ld.so.cache"):
        mounts.ro_bind("/etc/ld.so.cache")
    for root in python_roots():
        mounts.ro_bind(root, venv_view(root))
    package = Path(grader_home) / "grader"
    mounts.tmpfs(CHILD_HOME)        # the copies, read-only once written
    for part in ("__init__.py", "runner/__init__.py",
                 *(f"runner/child/{p.name}" for p in sorted((package / "runner/child").glob("*.py")))):
        mounts.copy((package / part).read_bytes(), f"{CHILD_HOME}/grader/{part}")
    argv += mounts.argv + ["--remount-ro", CHILD_HOME, "--remount-ro", "/dev", "--remount-ro", "/"]
    if os.geteuid() == 0:
        argv += ["--cap-drop", "ALL"]
        for cap in CAPABILITIES:
            argv += ["--cap-add", cap]
        return argv
    return argv + ["--unshare-user", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL",
                   "--cap-add", "CAP_SYS_ADMIN"]      # for child.isolate


def command(bwrap_path, grader_home, args):
    """The command that runs the interpreter with `args` in a sandbox: (argv, file descriptors to
    pass and then close). Only the interpreter's path inside and `args` show on the command line;
    the options travel through a file descriptor."""
    argv = options(grader_home)
    fds = []

    def holding(data):
        fd = os.memfd_create("bwrap", 0)
        fds.append(fd)
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        return fd

    argv = [str(holding(a)) if isinstance(a, bytes) else a for a in argv]
    listing = holding(b"".join(a.encode() + b"\0" for a in argv))
    return [bwrap_path, "--args", str(listing), venv_view(sys.executable), *args], fds
